/** LMX from bytes: a file's text, or the problem that stops it being read (too large, not UTF-8). */
import { LineIndex, type LmxProblem } from './problems.js';
import { LMX_MAX_BYTES } from './tags.js';

/** The problem of a body larger than the API takes: such a body is not read. */
export function tooLargeProblem(bytes: number): LmxProblem {
  return {
    severity: 'error',
    rule: 'too-large',
    message: `${bytes} bytes of LMX; the API takes at most ${LMX_MAX_BYTES} (100 KB) and refuses more`,
    fix: 'split the email, or move repeated blocks into a component',
    line: 1,
    column: 1,
    offset: 0,
  };
}

const NON_ASCII = /[^\u0000-\u007f]/g;

/** UTF-8 length of a string, without allocating it. */
export function utf8Length(text: string): number {
  // Every unit is one byte and more for those past ASCII, which the regex engine finds natively:
  // a loop of ours over each unit runs unoptimised for most of a one-shot process.
  let bytes = text.length;
  NON_ASCII.lastIndex = 0;
  while (NON_ASCII.test(text)) {
    const index = NON_ASCII.lastIndex - 1;
    const code = text.charCodeAt(index);
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      // A surrogate pair: four bytes for its two units.
      bytes += 2;
      NON_ASCII.lastIndex = index + 2;
    } else bytes += 2;
  }
  return bytes;
}

/**
 * LMX given as text (an API's answer, a string a caller holds) within the limit every reader of
 * LMX keeps, the API's 100 KB: the text, or the problem that stops it being read. Bytes read from a
 * file go through decodeLmx, which checks the same limit before decoding.
 */
export function boundedLmx(text: string): { source: string } | { problem: LmxProblem } {
  const bytes = utf8Length(text);
  return bytes > LMX_MAX_BYTES ? { problem: tooLargeProblem(bytes) } : { source: text };
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Bytes as LMX source, or the problem at the first byte that is not UTF-8 (or of their size). */
export function decodeLmx(bytes: Uint8Array): { source: string } | { problem: LmxProblem } {
  if (bytes.length > LMX_MAX_BYTES) return { problem: tooLargeProblem(bytes.length) };
  try {
    return { source: UTF8.decode(bytes) };
  } catch {
    const valid = firstInvalidByte(bytes);
    const before = new TextDecoder('utf-8').decode(bytes.subarray(0, valid));
    const { line, column } = new LineIndex(before).at(before.length);
    const problem: LmxProblem = {
      severity: 'error',
      rule: 'not-utf8',
      message: `byte ${valid + 1} (0x${bytes[valid]!.toString(16).padStart(2, '0')}) is not UTF-8: the file is in another encoding`,
      fix: 'save the file as UTF-8 (iconv -f <its encoding> -t UTF-8)',
      line,
      column,
      offset: before.length,
    };
    return { problem };
  }
}

/** Where well-formed UTF-8 ends in bytes that hold some that is not. */
function firstInvalidByte(bytes: Uint8Array): number {
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes[index]!;
    const length = lead < 0x80 ? 1 : lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
    if (length === 0 || index + length > bytes.length) return index;
    for (let next = 1; next < length; next += 1) if ((bytes[index + next]! & 0xc0) !== 0x80) return index;
    // Overlong forms, surrogates and code points past U+10FFFF.
    const second = bytes[index + 1]!;
    if ((lead === 0xe0 && second < 0xa0) || (lead === 0xed && second > 0x9f) || (lead === 0xf0 && second < 0x90) || (lead === 0xf4 && second > 0x8f))
      return index;
    index += length;
  }
  return index;
}
