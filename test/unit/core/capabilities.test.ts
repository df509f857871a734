/** A command is handed only the capabilities it declares: the rest of the run's context is absent. */
import { Readable, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { behaviours } from '../../../src/areas/behaviours.js';
import { CAPABILITIES, type Capability, handler, type Uses, viewOf } from '../../../src/core/capabilities.js';
import { CommandContext } from '../../../src/core/context.js';
import { command } from '../../../src/core/declare.js';
import { runCommand } from '../../../src/core/invoke.js';
import type { Runtime } from '../../../src/core/runtime.js';

class Sink extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.text += chunk.toString();
    callback();
  }
}

function contextOf(env: Record<string, string> = {}): { context: CommandContext; stdout: Sink } {
  const stdout = new Sink();
  const runtime: Runtime = {
    stdout,
    stderr: new Sink(),
    stdin: Readable.from([]),
    env: { LOOPSCTL_CONFIG_DIR: '/nonexistent/loopsctl-test', ...env },
    now: () => new Date('2026-01-02T03:04:05Z'),
    signal: new AbortController().signal,
    platform: process.platform,
  };
  return { context: new CommandContext(runtime, { color: false, timeout: 30, retries: 0 }), stdout };
}

/** Runs a local command whose behaviour is `behaviour`, through the path every run takes. */
async function runWith(context: CommandContext, behaviour: ReturnType<typeof handler>): Promise<number> {
  const spec = command({ name: 'probe', summary: 'looks at what it was handed', examples: [], remote: false, load: async () => behaviour });
  return runCommand(context, [spec], behaviours, { spec, path: ['probe'], args: [], options: {}, optionGiven: () => false });
}

describe('what a command is handed', () => {
  it('holds the declared capabilities and nothing else, at run time as in its type', async () => {
    const { context, stdout } = contextOf();
    let seen: Record<string, unknown> = {};
    const behaviour = handler(['out', 'clock'], async (view) => {
      seen = {
        members: Object.keys(view).sort(),
        runtime: Object.keys(view.runtime).sort(),
        client: 'client' in view,
        credentials: 'credentials' in view,
        env: 'env' in view.runtime,
        now: view.runtime.now().toISOString(),
      };
      await view.out.write('said\n');
      // @ts-expect-error: the network is not among the capabilities it declared
      return view.client === undefined ? 3 : 4;
    });
    expect(await runWith(context, behaviour)).toBe(3);
    expect(seen).toEqual({
      members: ['out', 'runtime'],
      runtime: ['now', 'paged', 'signal', 'stderr', 'stdout'],
      client: false,
      credentials: false,
      env: false,
      now: '2026-01-02T03:04:05.000Z',
    });
    expect(stdout.text).toBe('said\n');
  });

  it('hands a command that declares nothing only the abort signal', async () => {
    const { context } = contextOf();
    let keys: string[] = [];
    let runtimeKeys: string[] = [];
    await runWith(
      context,
      handler([], async (view) => {
        keys = Object.keys(view);
        runtimeKeys = Object.keys(view.runtime);
      }),
    );
    expect(keys).toEqual(['runtime']);
    expect(runtimeKeys).toEqual(['signal']);
  });

  it('binds the methods it hands out to the run’s context, and reads each member when asked', async () => {
    const { context } = contextOf({ LOOPSCTL_PROFILE: 'staging' });
    const view: Uses<'config' | 'env'> = viewOf(context, ['config', 'env']);
    const { chosenProfile } = view;
    expect(await chosenProfile()).toEqual({ name: 'staging', chosenBy: 'LOOPSCTL_PROFILE' });
    context.runtime.env.LOOPSCTL_PROFILE = 'production';
    expect(view.env.LOOPSCTL_PROFILE).toBe('production');
    expect(view.configDir).toBe(context.configDir);
  });

  it('never hands stdin without what says how it may be read, nor an output stream without whether it is paged', () => {
    // A helper that finds `files` absent would read any path an agent names.
    for (const [name, { runtime }] of Object.entries(CAPABILITIES) as [string, { runtime: readonly string[] }][]) {
      if (runtime.includes('stdin')) expect(runtime, name).toEqual(expect.arrayContaining(['stdinFd', 'files']));
      if (runtime.includes('stdout') || runtime.includes('stderr')) expect(runtime, name).toContain('paged');
    }
  });

  it('names only members that exist on the context or the runtime', () => {
    const { context } = contextOf();
    for (const [name, parts] of Object.entries(CAPABILITIES)) {
      for (const member of parts.context) expect(member in context, `${name}: ${member}`).toBe(true);
      const view = viewOf(context, [name as Capability]);
      expect(Object.keys(view.runtime).sort()).toEqual([...new Set(['signal', ...parts.runtime])].sort());
    }
  });
});
