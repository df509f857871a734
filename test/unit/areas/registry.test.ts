/**
 * The registry of areas lists the declarations as they are declared: a write that can plan is one
 * that declares --plan, and the path that runs commands gives it the change cycle's `plannable`
 * (src/areas/behaviours.ts), so that a group's commands are still made on first use and a start
 * builds the declarations of its own group alone.
 */
import { Readable, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { behaviours } from '../../../src/areas/behaviours.js';
import { handler } from '../../../src/core/capabilities.js';
import { CommandContext } from '../../../src/core/context.js';
import { type CommandSpec, command, group, PLAN_OPTIONS, type Spec, walkSpecs } from '../../../src/core/declare.js';
import { runCommand } from '../../../src/core/invoke.js';

class Sink extends Writable {
  override _write(_chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    callback();
  }
}

function contextOf(): CommandContext {
  const runtime = {
    stdout: new Sink(),
    stderr: new Sink(),
    stdin: Readable.from([]),
    env: { LOOPSCTL_CONFIG_DIR: '/nonexistent/loopsctl-test' },
    now: () => new Date('2026-01-02T03:04:05Z'),
    signal: new AbortController().signal,
    platform: process.platform,
  };
  return new CommandContext(runtime, { color: false, timeout: 30, retries: 0 });
}

describe('the registry', () => {
  it("makes no group's commands until they are asked for; a command that declares --plan runs as plannable, another as itself", async () => {
    const ran: string[] = [];
    let made = 0;
    const write = (name: string, options: CommandSpec['options']) =>
      command({ name, summary: name, examples: [], remote: true, tier: 'write', options, load: async () => handler(['out'], async () => void ran.push(name)) });
    const area = group({
      name: 'area',
      summary: 'area',
      examples: [],
      commands: () => {
        made += 1;
        return [
          write('planned', PLAN_OPTIONS),
          group({ name: 'nested', summary: 'nested', examples: [], commands: [write('deep', PLAN_OPTIONS)] }),
          write('plain', []),
        ];
      },
    });
    const tree: Spec[] = [area];
    expect(made).toBe(0);
    const commands = new Map(walkSpecs(tree).map(({ path, spec }) => [path.join(' '), spec]));
    expect(made).toBe(1);
    const run = (path: string, options: Record<string, unknown>) =>
      runCommand(contextOf(), tree, behaviours, { spec: commands.get(path)!, path: path.split(' '), args: [], options, optionGiven: () => false });

    // plannable's own refusal: --out belongs to a plan file, which only --plan writes.
    await expect(run('area planned', { out: 'change.json' })).rejects.toThrow('--out and --expires are those of a plan file: give --plan with them');
    await expect(run('area nested deep', { out: 'change.json' })).rejects.toThrow('--out and --expires are those of a plan file');
    expect(ran).toEqual([]);
    // Without --plan, a plannable command is the command itself; one that declares no --plan is never wrapped.
    expect(await run('area planned', {})).toBe(0);
    expect(await run('area plain', { out: 'change.json' })).toBe(0);
    expect(ran).toEqual(['planned', 'plain']);
    expect(made).toBe(1);
  });
});
