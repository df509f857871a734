/**
 * The shape of the source as a whole: no import circles (type imports and dynamic imports count, as
 * `madge --circular` counts them), and the parts meet only where they are meant to: the shared
 * knowledge (src/platform, src/lmx) imports neither the CLI's areas nor the emulator, and the
 * emulator imports nothing of the areas.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = posix.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|cts|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts') && !entry.name.endsWith('.d.cts') ? [path] : [];
  });
}

/** Each file under src/ with the files it imports (static, type-only and dynamic imports alike). */
function importGraph(): Map<string, string[]> {
  const files = sourceFiles('src');
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
    const targets = importedFiles
      .map(({ fileName }) => fileName)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => posix.normalize(posix.join(posix.dirname(file), specifier)).replace(/\.(c|m)?js$/, (_, kind = '') => `.${kind}ts`))
      .filter((target) => known.has(target));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The strongly connected groups of more than one file (or a file importing itself): each holds a circle. */
function circles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, counter);
    low.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || graph.get(file)!.includes(file)) found.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

const graph = importGraph();
const importsInto = (from: string, into: string) =>
  [...graph].flatMap(([file, targets]) =>
    file.startsWith(from) ? targets.filter((target) => target.startsWith(into)).map((target) => `${file} -> ${target}`) : [],
  );

describe('the source tree', () => {
  it('reads the whole of src/', () => {
    expect(graph.size).toBeGreaterThan(200);
    expect(graph.get('src/main.ts')).toContain('src/areas/registry.ts');
  });

  it('has no import circles, type and dynamic imports included', () => {
    expect(circles(graph)).toEqual([]);
  });

  it('finds a circle where there is one', () => {
    expect(
      circles(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', ['a']],
          ['d', ['a']],
        ]),
      ),
    ).toEqual([['a', 'b', 'c']]);
  });

  it('keeps the shared knowledge free of the CLI and the emulator', () => {
    for (const shared of ['src/platform/', 'src/lmx/']) {
      expect(importsInto(shared, 'src/areas/')).toEqual([]);
      expect(importsInto(shared, 'src/emulator/')).toEqual([]);
    }
  });

  it('keeps the emulator out of the CLI areas', () => {
    expect(importsInto('src/emulator/', 'src/areas/')).toEqual([]);
  });
});
