/**
 * `check --code` passes over a file that names nothing a scanner looks for, before parsing it.
 * The property that makes this safe: for any file, when the pre-filter passes over it, its
 * scanner (Babel's parser or the tokenizer) finds no use in it either, so the scan with the
 * pre-filter equals the scan without. Files are generated from the ways a key can be written:
 * every spelling normalKey reads alike, string and identifier keys, escapes that write a letter
 * without it, near misses, and noise.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanCode, scanFile } from '../../../src/app-code/scan.js';
import { mayHoldUses } from '../../../src/app-code/uses.js';
import { tempDir } from '../../support/main.js';

const NAMES = ['transactionalId', 'eventName', 'mailingLists', 'dataVariables', 'createContact', 'updateContact'];

/** A name as a source may spell it: snake or kebab case, another case, a letter escaped, a letter lost. */
const spelling = fc
  .tuple(
    fc.constantFrom(...NAMES),
    fc.nat(40),
    fc.constantFrom('plain', 'snake', 'kebab', 'upper', 'unicode', 'hex', 'octal', 'identity', 'continued', 'missing'),
  )
  .map(([name, seed, how]) => {
    const at = seed % name.length;
    const letter = name[at]!;
    const around = (middle: string) => name.slice(0, at) + middle + name.slice(at + 1);
    switch (how) {
      case 'plain':
        return name;
      case 'snake':
        return name.replace(/[A-Z]/g, (capital) => `_${capital.toLowerCase()}`);
      case 'kebab':
        return name.replace(/[A-Z]/g, (capital) => `-${capital}`);
      case 'upper':
        return name.toUpperCase();
      case 'unicode':
        return around(`\\u${letter.charCodeAt(0).toString(16).padStart(4, '0')}`);
      case 'hex':
        return around(`\\x${letter.charCodeAt(0).toString(16)}`);
      case 'octal':
        return around(`\\${letter.charCodeAt(0).toString(8)}`);
      case 'identity':
        return around(`\\${letter}`);
      case 'continued':
        return around(`\\\n${letter}`);
      default:
        return around('');
    }
  });

/** A key written as each language writes one, with what assigns it. */
const key = fc.tuple(spelling, fc.constantFrom('ident', 'double', 'single', 'template', 'symbol', 'keyword')).map(([name, form]) => {
  switch (form) {
    case 'ident':
      return `${name}: `;
    case 'double':
      return `"${name}": `;
    case 'single':
      return `'${name}' => `;
    case 'template':
      return `\`${name}\`: `;
    case 'symbol':
      return `:${name} => `;
    default:
      return `${name}=`;
  }
});

const value = fc.constantFrom('"c1"', "'c2'", '`c3`', '{ "a": 1, b: 2 }', 'map[string]any{"x": 1}', '{ plan: "pro" }', 'x', '[', '}');
const call = fc.tuple(spelling, fc.constantFrom('loops.', '')).map(([name, on]) => `${on}${name}({ email, properties: { plan: 1 } }, { plan: 2 })`);
const noise = fc.constantFrom(' ', ', ', '\n', '{', '}', '(', ')', 'f(', 'const a = ', '// c\n', '# c\n', '"s"', '\\', 'x.y');
const fragment = fc.oneof(
  fc.tuple(key, value).map(([k, v]) => k + v),
  call,
  noise,
  fc.string({ maxLength: 6 }),
);
const source = fc.array(fragment, { maxLength: 12 }).map((fragments) => `f({ ${fragments.join('')} })`);
const extension = fc.constantFrom('.ts', '.js', '.tsx', '.py', '.rb', '.go', '.php');

describe("check --code's pre-filter", () => {
  it('passes over only files in which no scanner finds a use', () => {
    let passed = 0;
    let found = 0;
    fc.assert(
      fc.property(source, extension, (text, ext) => {
        const { uses } = scanFile(`app${ext}`, text);
        if (uses.length > 0) found++;
        if (mayHoldUses(text)) return;
        passed++;
        expect(uses).toEqual([]);
      }),
      { numRuns: 3_000 },
    );
    // The generated files are of both kinds: some passed over, some holding uses. Of 3,000 runs
    // about 700 are passed over and 110 to 140 hold uses, so the bounds sit well below either.
    expect(passed).toBeGreaterThan(300);
    expect(found).toBeGreaterThan(40);
  });

  it('reads a use written with an escape for one of its letters', () => {
    const text = 'loops.sendTransactionalEmail({ "\\u0074ransactionalId": "c1" });';
    expect(scanFile('app.js', text).uses.map((use) => use.value)).toEqual(['c1']);
    expect(mayHoldUses(text)).toBe(true);
  });

  it('gives the same scan of a tree with the pre-filter as its scanners give file by file, and counts the files passed over', () => {
    const app = tempDir();
    mkdirSync(join(app, 'src'));
    writeFileSync(join(app, 'src', 'button.tsx'), 'export const Button = ({ label }: { label: string }) => <button>{label}</button>;\n');
    writeFileSync(join(app, 'src', 'util.py'), 'def add(a, b):\n    return a + b\n');
    writeFileSync(join(app, 'src', 'send.ts'), "await loops.sendEvent({ email, eventName: 'signed_up' });\n");
    writeFileSync(join(app, 'src', 'worker.rb'), "Loops.send_transactional_email(transactional_id: 'c9', email: e)\n");
    const scan = scanCode([app]);
    expect(scan.filesPassed).toBe(2);
    expect(scan.filesScanned).toBe(2);
    expect(scan.uses.map((use) => [use.kind, use.value])).toEqual([
      ['event', 'signed_up'],
      ['transactional', 'c9'],
    ]);
  });
});
