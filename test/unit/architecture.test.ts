/**
 * The building code of the source, as docs/development.md draws it: no import circles (type imports
 * and dynamic imports count, as `madge --circular` counts them), each floor imports only the floors
 * under it (src/base/ nothing at all), and the emulator is reached from outside only through its
 * faces: emulator/index.ts for the CLI, emulator/public.ts for an app's tests.
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
describe('the source tree', () => {
  it('reads the whole of src/', () => {
    expect(graph.size).toBeGreaterThan(200);
    expect(graph.get('src/main.ts')).toContain('src/areas/directory.ts');
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

  it('has each floor import only the floors under it', () => {
    expect(importsUp(graph)).toEqual([]);
  });

  it('finds an import that runs back up', () => {
    const upward = new Map([
      ['src/base/errors.ts', ['src/core/context.ts']],
      ['src/emulator/core.ts', ['src/base/errors.ts', 'src/api/http.ts']],
      ['src/areas/x/commands.ts', ['src/core/context.ts']],
    ]);
    expect(importsUp(upward)).toEqual(['src/base/errors.ts -> src/core/context.ts', 'src/emulator/core.ts -> src/api/http.ts']);
  });

  it('knows the floor of every folder under src/', () => {
    const unknown = [...new Set([...graph.keys()].map(floorOf))].filter((floor) => !(floor in FLOORS) && !TOP.includes(floor));
    expect(unknown).toEqual([]);
  });

  it('has no two areas import each other, not even around a circle of areas', () => {
    expect(circles(groupGraph(graph, areaOf))).toEqual([]);
  });

  it("has the emulator's routes/ and journeys/ tied one way only", () => {
    const emulatorPart = (file: string) => (/^src\/emulator\/(routes|journeys)\//.test(file) ? file.split('/')[2] : undefined);
    expect(circles(groupGraph(graph, emulatorPart))).toEqual([]);
  });

  it("has content's halves, emails/ and workflows/, import neither the other: content's verb entries join them", () => {
    const contentHalf = (file: string) => (/^src\/areas\/content\/(emails|workflows)\//.test(file) ? file.split('/')[3] : undefined);
    const halves = groupGraph(graph, contentHalf);
    expect([...halves.keys()].sort()).toEqual(['emails', 'workflows']);
    expect([...halves.values()]).toEqual([[], []]);
  });

  it('has the change cycle, areas/change/, import nothing of content/: the kinds of unit are handed to it', () => {
    expect(importsOf(graph, 'src/areas/change/', 'src/areas/content/')).toEqual([]);
    expect(importsOf(new Map([['src/areas/change/apply.ts', ['src/areas/content/files.ts']]]), 'src/areas/change/', 'src/areas/content/')).toEqual([
      'src/areas/change/apply.ts -> src/areas/content/files.ts',
    ]);
  });

  it('finds areas that import each other', () => {
    const tied = new Map([
      ['src/areas/content/push-command.ts', ['src/areas/workflows/client.ts', 'src/core/context.ts']],
      ['src/areas/workflows/show.ts', ['src/areas/content/render.ts']],
      ['src/areas/lists/list.ts', ['src/areas/workflows/client.ts']],
    ]);
    expect(circles(groupGraph(tied, areaOf))).toEqual([['content', 'workflows']]);
  });

  it('reaches the emulator from outside only through its faces', () => {
    const FACES = ['src/emulator/index.ts', 'src/emulator/public.ts'];
    const reaching = [...graph].flatMap(([file, targets]) =>
      file.startsWith('src/emulator/')
        ? []
        : targets.filter((target) => target.startsWith('src/emulator/') && !FACES.includes(target)).map((target) => `${file} -> ${target}`),
    );
    expect(reaching).toEqual([]);
  });
});

/**
 * The floors and what each may import besides itself, from the ground up. cli.ts, main.ts and the
 * build (TOP) stand on everything.
 */
const FLOORS: Record<string, string[]> = {
  base: [],
  platform: ['base'],
  // The tag table names the theme's style attributes (platform/themes/style-names.ts).
  lmx: ['base', 'platform'],
  emulator: ['base', 'platform', 'lmx'],
  api: ['base', 'platform'],
  config: ['base'],
  render: ['base', 'api'],
  core: ['base', 'platform', 'lmx', 'api', 'config', 'render'],
  areas: ['base', 'platform', 'lmx', 'emulator', 'api', 'config', 'render', 'core'],
};
const TOP = ['cli.ts', 'main.ts', 'build'];

/** The imports from a floor into one it may not import: a floor above it, or beside it. */
function importsUp(imports: Map<string, string[]>): string[] {
  return [...imports].flatMap(([file, targets]) => {
    const from = floorOf(file);
    const allowed = FLOORS[from];
    if (allowed === undefined) return [];
    return targets.filter((target) => floorOf(target) !== from && !allowed.includes(floorOf(target))).map((target) => `${file} -> ${target}`);
  });
}

/** The imports of files under `from` of files under `to`. */
function importsOf(imports: Map<string, string[]>, from: string, to: string): string[] {
  return [...imports].flatMap(([file, targets]) =>
    file.startsWith(from) ? targets.filter((target) => target.startsWith(to)).map((target) => `${file} -> ${target}`) : [],
  );
}

/** The folder right under src/ that a file is in (or its own name, for a file there). */
function floorOf(file: string): string {
  return file.split('/')[1]!;
}

/** The area a file under src/areas/ belongs to (the folder right under it), none for a file elsewhere. */
function areaOf(file: string): string | undefined {
  const [, floor, area, rest] = file.split('/');
  return floor === 'areas' && rest !== undefined ? area : undefined;
}

/** The imports between groups of files (`groupOf` names a file's group, none to leave it out). */
function groupGraph(imports: Map<string, string[]>, groupOf: (file: string) => string | undefined): Map<string, string[]> {
  const groups = new Map<string, Set<string>>();
  for (const [file, targets] of imports) {
    const from = groupOf(file);
    if (from === undefined) continue;
    const reached = groups.get(from) ?? new Set<string>();
    groups.set(from, reached);
    for (const target of targets) {
      const to = groupOf(target);
      if (to !== undefined && to !== from) reached.add(to);
    }
  }
  return new Map([...groups].map(([group, reached]) => [group, [...reached]]));
}
