import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isIndexKey, membersOf, parseMember, stateBytes } from '../../../src/emulator/state-text.js';

const state = {
  version: 2,
  teamName: 'Zoë’s team 👋',
  sequence: 7,
  contacts: [
    { id: 'c1', email: 'a@example.com', tags: ['x', 'y'], nested: { deep: [1, { e: null }] } },
    { id: 'c2', email: 'b@example.com', note: 'a line\nand "quotes"' },
  ],
  empty: [],
  settings: {},
  flag: false,
};

const written = () => stateBytes(state, () => undefined);
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The file's text without its index line, and that line's index. */
function split(bytes: Buffer): { body: string; index: { memberBytes: number[]; sha256: string } } {
  const text = bytes.toString('utf8');
  const line = /^ {2}"index": (.*),\n/m.exec(text)!;
  return { body: text.slice(line.index + line[0].length), index: JSON.parse(line[1]!) };
}

/** A file of these member lines, with the index they would have: lengths and digest both right. */
function laidOut(lines: string[]): Buffer {
  const body = `${lines.join(',\n')}\n}\n`;
  return Buffer.from(`{\n  "index": ${JSON.stringify({ memberBytes: lines.map((line) => Buffer.byteLength(line)), sha256: sha256(body) })},\n${body}`);
}

describe('the state file layout', () => {
  it("is JSON.stringify's layout, with an index of the member lines' lengths and their digest first", () => {
    const bytes = written();
    const { body, index } = split(bytes);
    expect(`{\n${body}`).toBe(`${JSON.stringify(state, null, 2)}\n`);
    const lines = body.replace(/\n\}\n$/, '').split(/,\n(?= {2}")/);
    expect(index).toEqual({ memberBytes: lines.map((line) => Buffer.byteLength(line)), sha256: sha256(body) });
    const { index: _index, ...rest } = JSON.parse(bytes.toString('utf8'));
    expect(rest).toEqual(state);
  });

  it('gives each member back as the bytes of its value, in order', () => {
    const members = membersOf(written())!;
    expect(members.map(({ key }) => key)).toEqual(Object.keys(state));
    for (const member of members) expect(parseMember(member)).toEqual(state[member.key as keyof typeof state]);
  });

  it('writes a member not parsed since the read as the bytes it was read from', () => {
    const kept = Buffer.from('[ {"id":"c1"} ]');
    const bytes = stateBytes(state, (key) => (key === 'contacts' ? kept : undefined));
    expect(
      membersOf(bytes)!
        .find(({ key }) => key === 'contacts')!
        .value.equals(kept),
    ).toBe(true);
    expect(JSON.parse(bytes.toString('utf8')).contacts).toEqual([{ id: 'c1' }]);
  });

  it('leaves out what JSON.stringify leaves out, and never writes a member of its own index', () => {
    const bytes = stateBytes({ version: 2, gone: undefined, index: [1], teamName: 'x' }, () => undefined);
    expect(JSON.parse(bytes.toString('utf8'))).toMatchObject({ index: { memberBytes: [14, 17] }, version: 2, teamName: 'x' });
    expect(isIndexKey('index')).toBe(true);
    expect(isIndexKey('contacts')).toBe(false);
  });

  it('finds no members in a file changed since it was written, whatever lengths the change kept', () => {
    const text = written().toString('utf8');
    const changed = [
      // An edit by hand that moves every later member, and one that moves nothing.
      text.replace('"a@example.com"', '"anna@example.com"'),
      text.replace('"a@example.com"', '"z@example.com"'),
      text.slice(0, -3),
      text.replace(/\n$/, '\n\n'),
      text.replaceAll('\n', '\r\n'),
      `\uFEFF${text}`,
      JSON.stringify(state),
      `${JSON.stringify(state, null, 2)}\n`,
      text.replace(/"memberBytes":\[\d+/, '"memberBytes":[0'),
      text.replace(/"memberBytes":\[[^\]]*\]/, '"memberBytes":[]'),
      text.replace(/"sha256":"[^"]*"/, '"sha256":null'),
      text.replace('"memberBytes":[', '"memberBytes":[1.5,'),
      '',
      '{}\n',
      '{\n  "index": {"memberBytes":[5],"sha256":""},',
    ];
    for (const content of changed) expect(membersOf(Buffer.from(content))).toBeUndefined();
  });

  it('never reads a member from the wrong place: edits that keep every length but nest members are seen', () => {
    const nestable = { version: 2, a: 'XXXXXXXXXX', b: [1], c: 'yy' };
    const text = stateBytes(nestable, () => undefined).toString('utf8');
    // The same lengths: "a" opens an object that "c" closes, so that to JSON "b" and "c" are inside "a".
    const crafted = text.replace('"XXXXXXXXXX"', '{"k":"XXXXX"').replace('"yy"', '"y"}');
    expect(crafted.length).toBe(text.length);
    expect(JSON.parse(crafted)).toMatchObject({ version: 2, a: { k: 'XXXXX', b: [1], c: 'y' } });
    expect(membersOf(Buffer.from(crafted))).toBeUndefined();
  });

  it('finds no members when a line does not start with a plain key of its own', () => {
    const line = (key: string, value: string) => `  ${key}: ${value}`;
    expect(membersOf(laidOut([line('"version"', '2'), line('"teamName"', '"x"')]))).toHaveLength(2);
    for (const lines of [
      [line('"version"', '2'), line('"version"', '3')],
      [line('"version"', '2'), line('"team\\u004eame"', '"x"')],
      [line('"version"', '2'), line('"index"', '{}')],
      [line('"version"', '2'), `    "teamName": "x"`],
      [line('"version"', '2'), line('"1st"', '"x"')],
    ]) {
      expect(membersOf(laidOut(lines))).toBeUndefined();
    }
  });
});
