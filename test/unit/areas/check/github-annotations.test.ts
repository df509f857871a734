/**
 * `check --format github` writes workflow commands (`::error file=…,title=…::message`), which the
 * Actions runner splits at `::`, a property list at `,` and each property at its first `=`. So,
 * as the toolkit's own command.ts escapes them: in the message `%`, CR and LF become %25, %0D and
 * %0A; in a property `:` and `,` become %3A and %2C as well. Each annotation is read back here as
 * the runner reads it, and must give back exactly what was written.
 */
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../../../src/areas/check/records.js';
import { renderGithub } from '../../../../src/areas/check/render.js';

/** The runner's reading of one workflow command: its name, its properties, its message. */
function readCommand(line: string): { command: string; properties: Record<string, string>; message: string } {
  const match = /^::([a-z]+)(?: ([^:]*))?::(.*)$/.exec(line);
  if (match === null) throw new Error(`not a workflow command: ${line}`);
  const unescapeData = (text: string) => text.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');
  const unescapeProperty = (text: string) => unescapeData(text.replace(/%3A/g, ':').replace(/%2C/g, ','));
  const properties: Record<string, string> = {};
  for (const pair of (match[2] ?? '').split(',').filter((part) => part !== '')) {
    const equals = pair.indexOf('=');
    properties[pair.slice(0, equals)] = unescapeProperty(pair.slice(equals + 1));
  }
  return { command: match[1]!, properties, message: unescapeData(match[3]!) };
}

const AWKWARD = 'Welcome, 100%: day 1\r\nand %0A written out, 50%25';

function report(problems: Problem[]) {
  return { problems, emailsChecked: 1, recordsRead: 1, incomplete: false };
}

describe('check --format github', () => {
  it('escapes %, CR and LF in the message, and : and , too in a property, so that the runner reads back what was meant', () => {
    const problem: Problem = {
      rule: 'code-unknown-event',
      severity: 'warning',
      message: `sends the event "${AWKWARD}"`,
      fix: 'check the name, 100%',
      kind: 'event',
      name: AWKWARD,
      id: '',
      file: 'src/a,b:c%.ts',
      line: 3,
      column: 7,
    };
    const [annotation, summary, end] = renderGithub(report([problem])).split('\n');
    expect(end).toBe('');
    expect(summary).not.toMatch(/^::/);
    const read = readCommand(annotation!);
    expect(read).toEqual({
      command: 'warning',
      properties: { file: 'src/a,b:c%.ts', line: '3', col: '7', title: `code-unknown-event: event ${AWKWARD}` },
      message: `sends the event "${AWKWARD}". Fix: check the name, 100%`,
    });
  });

  it('writes each severity as its command, a problem with no file on the run', () => {
    const base = { rule: 'unused-theme', message: 'no email uses this theme', fix: 'use it', kind: 'theme', name: 'Dark', id: 't1' } as const;
    const lines = renderGithub(
      report([
        { ...base, severity: 'error' },
        { ...base, severity: 'warning' },
        { ...base, severity: 'info' },
      ]),
    ).split('\n');
    expect(lines.slice(0, 3).map((line) => readCommand(line).command)).toEqual(['error', 'warning', 'notice']);
    expect(readCommand(lines[0]!).properties).toEqual({ title: 'unused-theme: theme Dark' });
  });
});
