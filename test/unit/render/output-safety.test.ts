import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { formatJson, Output } from '../../../src/render/output.js';

function capture() {
  let text = '';
  const stream = new Writable({
    write: (chunk, _encoding, done) => {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}

describe('Output', () => {
  it('sanitizes notes, which quote the API', () => {
    const stderr = capture();
    new Output({ json: false, color: false, stderr: stderr.stream, env: {} }).note('More themes: run again with --cursor \u001b]0;x\u0007');
    expect(stderr.text()).toBe('More themes: run again with --cursor \\x1b]0;x\\x07\n');
  });

  it('wraps a note at words to the width of a terminal, and leaves it one line elsewhere', () => {
    const note = 'No webhooks were delivered yet: start the sandbox with --webhook-url <url> to deliver them as they are queued';
    const terminal = capture();
    Object.assign(terminal.stream, { isTTY: true, columns: 40 });
    new Output({ json: false, color: false, stderr: terminal.stream, env: {} }).note(note);
    const lines = terminal.text().split('\n');
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.every((line) => line.length <= 40)).toBe(true);
    expect(lines.join(' ').replace(/\s+/g, ' ').trim()).toBe(note);
    const pipe = capture();
    new Output({ json: false, color: false, stderr: pipe.stream, env: {} }).note(note);
    expect(pipe.text()).toBe(`${note}\n`);
  });

  it('never wraps a command to copy, even on a narrow terminal', () => {
    const command = '  loopsctl email-messages update csfe4lcc5y1ptxuffld4qk8zj \\';
    const terminal = capture();
    Object.assign(terminal.stream, { isTTY: true, columns: 40 });
    new Output({ json: false, color: false, stderr: terminal.stream, env: {} }).note(command, { command: true });
    expect(terminal.text()).toBe(`${command}\n`);
  });

  it('escapes every C1 control of text written to a terminal, and leaves the text as it is for a pipe or a file', async () => {
    const text = 'a module \u009b2J written by a command \u001b[1mbold\u001b[22m\n';
    const terminal = capture();
    Object.assign(terminal.stream, { isTTY: true, columns: 80 });
    await new Output({ json: false, color: true, stdout: terminal.stream, env: {} }).write(text);
    expect(terminal.text()).toBe('a module \\x9b2J written by a command \u001b[1mbold\u001b[22m\n');
    const pipe = capture();
    await new Output({ json: false, color: false, stdout: pipe.stream, env: {} }).write(text);
    expect(pipe.text()).toBe(text);
  });

  it('escapes DEL and C1 in JSON, which parses back to exactly the same data', () => {
    const data = { name: 'a\u009b31mb\u007f\u001b', nested: [{ note: '\u0085 line' }] };
    const text = formatJson(data);
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(text).toContain('a\\u009b31mb\\u007f\\u001b');
    expect(JSON.parse(text)).toEqual(data);
  });
});
