/**
 * The bytes of a sandbox state file, and reading them back one member at a time. The file is the
 * state as JSON, laid out as `JSON.stringify(state, null, 2)` lays it out, with one member more
 * before the others: `memberBytes`, the length in bytes of each member line that follows. A read
 * finds every member where those lengths put it, each line starting with its key and ending where
 * the next begins, and then parses only the members a request uses: a 1 MB state, almost all of it
 * contacts, costs `workflow list` the reading of the file, not the parsing of its contacts.
 *
 * A file that does not match its lengths (edited by hand, or by another program) is read as the
 * plain JSON it is, whole. A member that was never parsed is written back as the bytes it was read
 * from, so a change to one slice does not parse and write out the others again.
 */

/** The member that gives the lengths of the others; never a member of the state itself. */
const LENGTHS_KEY = 'memberBytes';
const HEAD = `{\n  "${LENGTHS_KEY}": `;
/** A key as the state's slices name them: found by its quotes alone, with no escapes to undo. */
const PLAIN_KEY = /^[A-Za-z_$][\w$]*$/;

/** A state's members, some of them still the bytes of their JSON value. */
export type StoredMember = { key: string; value: Buffer };

/**
 * The members of a file written by stateBytes, each with the bytes of its value; undefined when the
 * file is not laid out as its lengths say (then it is to be parsed whole, as JSON).
 */
export function membersOf(bytes: Buffer): StoredMember[] | undefined {
  if (bytes.toString('latin1', 0, HEAD.length) !== HEAD) return undefined;
  const lineEnd = bytes.indexOf(0x0a, HEAD.length);
  const lengths = lineEnd === -1 ? undefined : lengthsIn(bytes.toString('latin1', HEAD.length, lineEnd));
  if (lengths === undefined) return undefined;
  const members: StoredMember[] = [];
  const keys = new Set<string>([LENGTHS_KEY]);
  let at = lineEnd + 1;
  for (const [index, length] of lengths.entries()) {
    const line = bytes.subarray(at, at + length);
    const keyEnd = line.indexOf('": ');
    const key = keyEnd === -1 ? '' : line.toString('latin1', 3, keyEnd);
    if (line.length !== length || line.toString('latin1', 0, 3) !== '  "' || !PLAIN_KEY.test(key) || keys.has(key)) return undefined;
    keys.add(key);
    members.push({ key, value: line.subarray(keyEnd + 3) });
    at += length;
    const separator = index === lengths.length - 1 ? '\n}\n' : ',\n';
    if (bytes.toString('latin1', at, at + separator.length) !== separator) return undefined;
    at += separator.length;
  }
  return at === bytes.length ? members : undefined;
}

/** `[12, 345],` as the lengths it lists: at least one, each a whole number of bytes above 0. */
function lengthsIn(text: string): number[] | undefined {
  if (!text.endsWith(',')) return undefined;
  try {
    const lengths: unknown = JSON.parse(text.slice(0, -1));
    const valid = Array.isArray(lengths) && lengths.length > 0 && lengths.every((length) => Number.isSafeInteger(length) && length > 0);
    return valid ? (lengths as number[]) : undefined;
  } catch {
    return undefined;
  }
}

/** The value of a member's bytes, or why it has none. */
export function parseMember(member: StoredMember): { value: unknown } | { problem: string } {
  try {
    return { value: JSON.parse(member.value.toString('utf8')) };
  } catch {
    return { problem: `${member.key} is not valid JSON` };
  }
}

/**
 * The file's bytes for a state: each member's line, from `unparsed` when it was never parsed, else
 * as JSON.stringify lays it out two spaces in (members it would leave out, such as undefined
 * ones, left out too), after the line of their lengths.
 */
export function stateBytes(state: Record<string, unknown>, unparsed: (key: string) => Uint8Array | undefined): Buffer {
  const lines: Uint8Array[][] = [];
  for (const key of Object.keys(state)) {
    if (key === LENGTHS_KEY) continue;
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
  const lengths = lines.map(([key, value]) => key!.length + value!.length);
  const parts: Uint8Array[] = [Buffer.from(`${HEAD}${JSON.stringify(lengths)},\n`)];
  for (const [index, line] of lines.entries()) parts.push(...line, Buffer.from(index === lines.length - 1 ? '\n}\n' : ',\n'));
  return Buffer.concat(parts);
}

/** Whether a key is the lengths' member, which a state read whole drops. */
export function isLengthsKey(key: string): boolean {
  return key === LENGTHS_KEY;
}
