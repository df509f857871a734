import { describe, expect, it } from 'vitest';
import { isLengthsKey, membersOf, parseMember, stateBytes } from '../../../src/emulator/state-text.js';

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

/** The file's text without its line of lengths. */
const withoutLengths = (bytes: Buffer) => bytes.toString('utf8').replace(/^ {2}"memberBytes": .*\n/m, '');

describe('the state file layout', () => {
  it("is JSON.stringify's layout, with the byte length of each member line before them", () => {
    const bytes = written();
    expect(withoutLengths(bytes)).toBe(`${JSON.stringify(state, null, 2)}\n`);
    const { memberBytes, ...rest } = JSON.parse(bytes.toString('utf8'));
    expect(rest).toEqual(state);
    const lines = withoutLengths(bytes).split(/,\n(?= {2}")/);
    lines[0] = lines[0]!.replace(/^\{\n/, '');
    lines[lines.length - 1] = lines.at(-1)!.replace(/\n\}\n$/, '');
    expect(memberBytes).toEqual(lines.map((line) => Buffer.byteLength(line)));
  });

  it('gives each member back as the bytes of its value, in order', () => {
    const members = membersOf(written())!;
    expect(members.map(({ key }) => key)).toEqual(Object.keys(state));
    for (const member of members) expect(parseMember(member)).toEqual({ value: state[member.key as keyof typeof state] });
  });

  it('writes a member not parsed since the read as the bytes it was read from', () => {
    const kept = Buffer.from('[ {"id":"c1"} ]');
    const bytes = stateBytes(state, (key) => (key === 'contacts' ? kept : undefined));
    const members = membersOf(bytes)!;
    expect(members.find(({ key }) => key === 'contacts')!.value.equals(kept)).toBe(true);
    expect(JSON.parse(bytes.toString('utf8')).contacts).toEqual([{ id: 'c1' }]);
  });

  it('leaves out what JSON.stringify leaves out, and never writes a member of its own lengths', () => {
    const bytes = stateBytes({ version: 2, gone: undefined, memberBytes: [1], teamName: 'x' }, () => undefined);
    expect(JSON.parse(bytes.toString('utf8'))).toEqual({ memberBytes: [14, 17], version: 2, teamName: 'x' });
    expect(isLengthsKey('memberBytes')).toBe(true);
    expect(isLengthsKey('contacts')).toBe(false);
  });

  it('finds no members in a file its lengths do not describe, which is then read whole', () => {
    const text = written().toString('utf8');
    const edited = [
      // A contact edited by hand: every later member has moved.
      text.replace('"a@example.com"', '"anna@example.com"'),
      // The same, with the lengths kept in step by hand but the file then cut short.
      text.slice(0, -3),
      text.replace(/\n$/, '\n\n'),
      JSON.stringify(state),
      `${JSON.stringify(state, null, 2)}\n`,
      text.replace(/"memberBytes": \[\d+/, '"memberBytes": [0'),
      text.replace(/"memberBytes": \[[^\]]*\]/, '"memberBytes": []'),
      text.replace(/"memberBytes": \[[^\]]*\]/, '"memberBytes": "many"'),
      text.replace('"memberBytes": [', '"memberBytes": [1.5, '),
      '',
      '{}\n',
      '{\n  "memberBytes": [5],',
    ];
    for (const content of edited) expect(membersOf(Buffer.from(content))).toBeUndefined();
  });

  it('finds no members when a line does not start with a plain key of its own', () => {
    const line = (key: string, value: string) => `  ${key}: ${value}`;
    const file = (lines: string[]) => `{\n  "memberBytes": ${JSON.stringify(lines.map((text) => Buffer.byteLength(text)))},\n${lines.join(',\n')}\n}\n`;
    expect(membersOf(Buffer.from(file([line('"version"', '2'), line('"teamName"', '"x"')])))).toHaveLength(2);
    for (const lines of [
      [line('"version"', '2'), line('"version"', '3')],
      [line('"version"', '2'), line('"team\\u004eame"', '"x"')],
      [line('"version"', '2'), line('"memberBytes"', '[1]')],
      [line('"version"', '2'), `    "teamName": "x"`],
      [line('"version"', '2'), line('"1st"', '"x"')],
    ]) {
      expect(membersOf(Buffer.from(file(lines)))).toBeUndefined();
    }
  });

  it('names a member whose bytes are not JSON', () => {
    expect(parseMember({ key: 'contacts', value: Buffer.from('[{"id": "c1"') })).toEqual({ problem: 'contacts is not valid JSON' });
  });
});
