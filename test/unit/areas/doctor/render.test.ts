import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type Check, renderChecks } from '../../../../src/areas/doctor/render.js';
import { Output } from '../../../../src/render/output.js';

const sink = () => new Writable({ write: (_chunk, _encoding, done) => done() });
const outputAt = (tty: boolean) =>
  new Output({ json: false, color: false, stdout: Object.assign(sink(), { isTTY: tty }), stderr: sink(), env: {}, columns: 80 });

const checks: Check[] = [
  { name: 'version', ok: true, detail: '0.1.0 (npm)' },
  {
    name: 'keychain',
    ok: false,
    detail: 'no system keychain answered (this session has no D-Bus session bus, so no Secret Service such as GNOME Keyring can answer)',
    hint: 'keys are stored in the config file, readable by you only; start a Secret Service to keep them in the keychain',
  },
];

describe("doctor's text view", () => {
  it('wraps a long detail and its hint under the detail column on an 80-column terminal', () => {
    const lines = renderChecks(outputAt(true), checks).trimEnd().split('\n');
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(80);
    expect(lines[0]).toBe('ok   version   0.1.0 (npm)');
    expect(lines[1]).toMatch(/^FAIL keychain {2}no system keychain answered/);
    // Continuation lines start where the detail does.
    for (const line of lines.slice(2, -1)) expect(line).toMatch(/^ {15}\S/);
    expect(lines.slice(2, -1).some((line) => line.trimStart().startsWith('hint: keys are stored'))).toBe(true);
    expect(lines.at(-1)).toBe('1 check failed.');
  });

  it('keeps each check on one line off a terminal, for grep', () => {
    const lines = renderChecks(outputAt(false), checks).trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain('can answer)');
    expect(lines[2]).toMatch(/^ {15}hint: keys are stored/);
  });
});
