/**
 * The bytes of a sandbox state file, and reading them back one member at a time. The file is the
 * state as JSON, laid out as `JSON.stringify(state, null, 2)` lays it out, with one member more
 * before the others, `index`: the length in bytes of each member line that follows, and the SHA-256
 * of all of them. A file whose members still have that digest is byte for byte as loopsctl wrote it,
 * so each member is where the lengths put it, one whole JSON value: a read can parse only the members
 * a request uses, and a 1 MB state, almost all of it contacts, costs `workflow list` the reading of
 * the file, not the parsing of its contacts.
 *
 * Any other file (edited by hand or by another program, or written by an older loopsctl) is read as
 * the plain JSON it is, whole: no edit, however it keeps the lengths, can make a member be read from
 * the wrong place. A member that was never parsed is written back as the bytes it was read from, so
 * a change to one slice does not parse and write out the others again.
 */
import { builtinModule } from '../base/builtin.js';

/** The member that says where the others are; never a member of the state itself. */
const INDEX_KEY = 'index';
const HEAD = `{\n  "${INDEX_KEY}": `;
/** A key as the state's slices name them: found by its quotes alone, with no escapes to undo. */
const PLAIN_KEY = /^[A-Za-z_$][\w$]*$/;

/** A member of a state file: its key, and the bytes of its JSON value. */
export type StoredMember = { key: string; value: Buffer };

/**
 * The members of a file as stateBytes wrote it, each with the bytes of its value; undefined for any
 * other file (then it is to be parsed whole, as JSON).
 */
export function membersOf(bytes: Buffer): StoredMember[] | undefined {
  if (bytes.toString('latin1', 0, HEAD.length) !== HEAD) return undefined;
  const lineEnd = bytes.indexOf(0x0a, HEAD.length);
  const index = lineEnd === -1 ? undefined : indexIn(bytes.toString('latin1', HEAD.length, lineEnd));
  if (index === undefined) return undefined;
  const members: StoredMember[] = [];
  const keys = new Set<string>([INDEX_KEY]);
  let at = lineEnd + 1;
  for (const [position, length] of index.memberBytes.entries()) {
    const line = bytes.subarray(at, at + length);
    const keyEnd = line.indexOf('": ');
    const key = keyEnd === -1 ? '' : line.toString('latin1', 3, keyEnd);
    if (line.length !== length || line.toString('latin1', 0, 3) !== '  "' || !PLAIN_KEY.test(key) || keys.has(key)) return undefined;
    keys.add(key);
    members.push({ key, value: line.subarray(keyEnd + 3) });
    at += length;
    const separator = position === index.memberBytes.length - 1 ? '\n}\n' : ',\n';
    if (bytes.toString('latin1', at, at + separator.length) !== separator) return undefined;
    at += separator.length;
  }
  // Last, as the dearest check: whether anything was changed since loopsctl wrote it.
  return at === bytes.length && digestOf(bytes.subarray(lineEnd + 1)) === index.sha256 ? members : undefined;
}

/** `{"memberBytes":[12,345],"sha256":"…"},` as what it says: at least one length, each above 0. */
function indexIn(text: string): { memberBytes: number[]; sha256: string } | undefined {
  if (!text.endsWith(',')) return undefined;
  try {
    const { memberBytes, sha256 } = JSON.parse(text.slice(0, -1)) as { memberBytes?: unknown; sha256?: unknown };
    const valid =
      Array.isArray(memberBytes) &&
      memberBytes.length > 0 &&
      memberBytes.every((length) => Number.isSafeInteger(length) && length > 0) &&
      typeof sha256 === 'string';
    return valid ? { memberBytes: memberBytes as number[], sha256 } : undefined;
  } catch {
    return undefined;
  }
}

function digestOf(bytes: Uint8Array): string {
  return builtinModule('node:crypto').createHash('sha256').update(bytes).digest('hex');
}

/** The value a member's bytes hold: JSON that loopsctl wrote, as the digest proved. */
export function parseMember(member: StoredMember): unknown {
  return JSON.parse(member.value.toString('utf8'));
}

/**
 * The file's bytes for a state: each member's line, from `unparsed` when it was never parsed, else
 * as JSON.stringify lays it out two spaces in (members it would leave out, such as undefined
 * ones, left out too), after the line of the index.
 */
export function stateBytes(state: Record<string, unknown>, unparsed: (key: string) => Uint8Array | undefined): Buffer {
  const lines: Uint8Array[][] = [];
  for (const key of Object.keys(state)) {
    if (key === INDEX_KEY) continue;
    let value = unparsed(key);
    if (value === undefined) {
      const json = JSON.stringify(state[key], null, 2) as string | undefined;
      if (json === undefined) continue;
      // A JSON text has no line break but those of its layout: each takes the member's indentation.
      value = Buffer.from(json.replaceAll('\n', '\n  '));
    }
    lines.push([Buffer.from(`  ${JSON.stringify(key)}: `), value]);
  }
  if (lines.length === 0) return Buffer.from('{}\n');
  const memberBytes = lines.map(([key, value]) => key!.length + value!.length);
  const body = Buffer.concat(lines.flatMap((line, position) => [...line, Buffer.from(position === lines.length - 1 ? '\n}\n' : ',\n')]));
  return Buffer.concat([Buffer.from(`${HEAD}${JSON.stringify({ memberBytes, sha256: digestOf(body) })},\n`), body]);
}

/** Whether a key is the index's, which a state read whole drops. */
export function isIndexKey(key: string): boolean {
  return key === INDEX_KEY;
}
