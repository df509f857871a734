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
/** The graph as ties between folders are counted: a one-line handle stands for the module it loads. */
const handles = handlesOf(graph);
const tiesGraph = collapseHandles(graph, handles);
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
      ['src/areas/x/commands.ts', ['src/core/context.ts', 'src/convert/model.ts']],
      // convert's engine stands under the commands and beside the core: neither way between them.
      ['src/convert/x.ts', ['src/lmx/parse.ts', 'src/core/declare.ts']],
      ['src/core/y.ts', ['src/convert/model.ts']],
    ]);
    expect(importsUp(upward)).toEqual([
      'src/base/errors.ts -> src/core/context.ts',
      'src/emulator/core.ts -> src/api/http.ts',
      'src/convert/x.ts -> src/core/declare.ts',
      'src/core/y.ts -> src/convert/model.ts',
    ]);
  });

  it("has the platform's knowledge, LMX and the emulator use no command-line library: an app's tests load them", () => {
    expect(commandLineImports(['src/base/', 'src/platform/', 'src/lmx/', 'src/emulator/'])).toEqual([]);
  });

  it('knows the floor of every folder under src/', () => {
    const unknown = [...new Set([...graph.keys()].map(floorOf))].filter((floor) => !(floor in FLOORS) && !TOP.includes(floor));
    expect(unknown).toEqual([]);
  });

  it('has no two areas import each other, not even around a circle of areas', () => {
    expect(circles(groupGraph(tiesGraph, areaOf))).toEqual([]);
  });

  it("has the emulator's routes/ and journeys/ tied one way only, a handle's tie counted: the registry names the engine", () => {
    expect(circles(groupGraph(tiesGraph, emulatorPart))).toEqual([]);
    expect(tiesOf(groupGraph(tiesGraph, emulatorPart))).toEqual(['journeys -> routes']);
  });

  it('counts a tie through a one-line handle as a tie', () => {
    const handled = new Map([
      ['src/emulator/routes/a.ts', ['src/emulator/handle.ts']],
      ['src/emulator/handle.ts', ['src/emulator/module.ts', 'src/emulator/journeys/b.ts']],
      ['src/emulator/journeys/b.ts', ['src/emulator/routes/a.ts']],
    ]);
    expect(circles(groupGraph(handled, emulatorPart))).toEqual([]);
    const collapsed = collapseHandles(handled, new Map([['src/emulator/handle.ts', 'src/emulator/journeys/b.ts']]));
    expect(circles(groupGraph(collapsed, emulatorPart))).toEqual([['journeys', 'routes']]);
  });

  it('knows a one-line handle by its text, and no file that does more', () => {
    const handle = "/** Loaded when used. */\nimport { later } from './module.js';\n\nexport const engine = later(() => import('./journeys/engine.js'));\n";
    expect(handleTarget('src/emulator/engine-handle.ts', handle)).toBe('src/emulator/journeys/engine.ts');
    expect(handleTarget('src/base/x.ts', "export * from './y.js';\n")).toBe('src/base/y.ts');
    expect(handleTarget('src/emulator/x.ts', `${handle}export const other = 1;\n`)).toBeUndefined();
    // The routes' slot for the engine names no module of journeys/: it is no handle.
    expect(handles.has('src/emulator/routes/journey-starts.ts')).toBe(false);
  });

  it("has content's halves, emails/, workflows/ and audience/, import none of the others: shared/ holds what they share", () => {
    const halves = groupGraph(tiesGraph, contentHalf);
    expect([...halves.keys()].sort()).toEqual([...CONTENT_HALVES].sort());
    expect(tiesOf(halves)).toEqual([]);
  });

  it("finds content's halves that import one another", () => {
    const tied = new Map([
      ['src/areas/content/audience/plan.ts', ['src/areas/content/emails/sides.ts', 'src/areas/content/shared/files.ts']],
      ['src/areas/content/workflows/check.ts', ['src/areas/content/shared/check.ts']],
    ]);
    expect(tiesOf(groupGraph(tied, contentHalf))).toEqual(['audience -> emails']);
  });

  it("has content's convert/ import no half: what it shares with workflows/ is in shared/", () => {
    expect(CONTENT_HALVES.flatMap((half) => importsOf(tiesGraph, 'src/areas/content/convert/', `src/areas/content/${half}/`))).toEqual([]);
  });

  it("has content's shared/ import nothing else of content: its verbs, its halves, convert/ and review/ stand on it", () => {
    expect(contentImportsOfShared(tiesGraph)).toEqual([]);
  });

  it("finds a file of content's shared/ that imports the rest of content", () => {
    const reaching = new Map([
      ['src/areas/content/shared/tree.ts', ['src/areas/content/emails/files.ts', 'src/areas/content/shared/files.ts']],
      ['src/areas/content/shared/render.ts', ['src/areas/content/render-commands.ts', 'src/render/output.ts']],
      ['src/areas/content/push-command.ts', ['src/areas/content/emails/push.ts']],
      ['src/areas/content/convert/workflow.ts', ['src/areas/content/workflows/files.ts']],
    ]);
    expect(contentImportsOfShared(reaching)).toEqual([
      'src/areas/content/shared/tree.ts -> src/areas/content/emails/files.ts',
      'src/areas/content/shared/render.ts -> src/areas/content/render-commands.ts',
    ]);
    expect(importsOf(reaching, 'src/areas/content/convert/', 'src/areas/content/workflows/')).toEqual([
      'src/areas/content/convert/workflow.ts -> src/areas/content/workflows/files.ts',
    ]);
  });

  it("has deliveries/ and webhooks/ stand on webhooks-shared/ and on no other area's files, and webhooks-shared/ on no area", () => {
    expect(webhookGroundTies(tiesGraph)).toEqual([]);
    // deliveries reconcile reads the metrics store; metrics/ reads none of the webhooks' areas back.
    expect(importsOf(tiesGraph, 'src/areas/metrics/', 'src/areas/deliveries/')).toEqual([]);
    expect(importsOf(tiesGraph, 'src/areas/metrics/', 'src/areas/webhooks')).toEqual([]);
  });

  it("finds a webhooks' area that reaches past the shared ground", () => {
    const tied = new Map([
      ['src/areas/deliveries/find.ts', ['src/areas/webhooks/event-pattern.ts', 'src/areas/webhooks-shared/store-option.ts', 'src/base/instant.ts']],
      ['src/areas/deliveries/filters.ts', ['src/areas/log/instant.ts']],
      ['src/areas/webhooks/listen.ts', ['src/areas/deliveries/find.ts', 'src/areas/webhooks/receiver.ts']],
      ['src/areas/webhooks-shared/alert-render.ts', ['src/areas/webhooks/listen.ts', 'src/areas/webhooks-shared/alert-rules.ts']],
      ['src/areas/log/commands.ts', ['src/areas/webhooks/listen.ts']],
    ]);
    expect(webhookGroundTies(tied)).toEqual([
      'src/areas/deliveries/find.ts -> src/areas/webhooks/event-pattern.ts',
      'src/areas/deliveries/filters.ts -> src/areas/log/instant.ts',
      'src/areas/webhooks/listen.ts -> src/areas/deliveries/find.ts',
      'src/areas/webhooks-shared/alert-render.ts -> src/areas/webhooks/listen.ts',
    ]);
  });

  it('has the change cycle, areas/change/, import nothing of content/: the kinds of unit are handed to it', () => {
    expect(importsOf(graph, 'src/areas/change/', 'src/areas/content/')).toEqual([]);
    expect(importsOf(new Map([['src/areas/change/apply.ts', ['src/areas/content/shared/files.ts']]]), 'src/areas/change/', 'src/areas/content/')).toEqual([
      'src/areas/change/apply.ts -> src/areas/content/shared/files.ts',
    ]);
  });

  it('has no two sibling folders tie both ways, anywhere under src/', () => {
    expect(twoWaySiblings(tiesGraph)).toEqual([]);
  });

  it('finds sibling folders that tie both ways, however deep', () => {
    const tied = new Map([
      ['src/areas/check/links/check.ts', ['src/areas/check/rules/content.ts', 'src/areas/check/records.ts']],
      ['src/areas/check/rules/qa.ts', ['src/areas/check/links/rules.ts']],
      ['src/lmx/qa/a.ts', ['src/lmx/tags.ts']],
      ['src/lmx/tags.ts', ['src/lmx/qa/a.ts']],
      ['src/emulator/routes/x.ts', ['src/emulator/journeys/y.ts']],
    ]);
    expect(twoWaySiblings(tied)).toEqual(['src/areas/check: links <-> rules']);
  });

  it('has the change cycle, areas/change/, import no area: each kind of record is handed to it', () => {
    expect(areaImportsOfChange(graph)).toEqual([]);
    expect(areaImportsOfChange(new Map([['src/areas/change/namesakes.ts', ['src/areas/themes/client.ts', 'src/core/explain.ts']]]))).toEqual([
      'src/areas/change/namesakes.ts -> src/areas/themes/client.ts',
    ]);
  });

  it("holds only registries at areas/' root: each file there reads areas, and a helper that reads none stands a floor down", () => {
    expect(rootHelpers(graph)).toEqual([]);
    const helper = new Map([
      ['src/areas/registry.ts', ['src/areas/themes/index.ts']],
      ['src/areas/behaviours.ts', ['src/areas/plan-kinds.ts']],
      ['src/areas/plan-kinds.ts', ['src/areas/themes/kind.ts']],
      ['src/areas/explain.ts', ['src/base/errors.ts', 'src/core/capabilities.ts']],
      ['src/areas/themes/commands.ts', ['src/areas/explain.ts']],
    ]);
    expect(rootHelpers(helper)).toEqual(['src/areas/explain.ts']);
  });

  it("has no area import a registry at areas/' root that reads it back: what the registry makes is handed in", () => {
    expect(registriesReadBack(graph)).toEqual([]);
    const back = new Map([
      ['src/areas/content/push-command.ts', ['src/areas/plan-kinds.ts']],
      ['src/areas/plan-kinds.ts', ['src/areas/content/emails/kind.ts', 'src/areas/themes/kind.ts']],
      ['src/areas/mcp/binding.ts', ['src/areas/behaviours.ts']],
      ['src/areas/behaviours.ts', ['src/areas/plan-kinds.ts']],
      ['src/areas/themes/commands.ts', ['src/areas/registry.ts']],
      ['src/areas/registry.ts', ['src/areas/campaigns/index.ts']],
    ]);
    expect(registriesReadBack(back)).toEqual(['src/areas/content/push-command.ts -> src/areas/plan-kinds.ts']);
  });

  it('finds areas that import each other', () => {
    const tied = new Map([
      ['src/areas/content/push-command.ts', ['src/areas/workflows/client.ts', 'src/core/context.ts']],
      ['src/areas/workflows/show.ts', ['src/areas/content/shared/render.ts']],
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
  // What an app's code does with Loops (`check --code`, `content review`, `migrate`, a plan's impact): it reads files and knows no API.
  'app-code': ['base'],
  api: ['base', 'platform'],
  config: ['base'],
  render: ['base', 'api'],
  // The webhooks library (loopsctl/webhooks) runs inside an app: Node and the platform's rules only.
  webhooks: ['base', 'platform'],
  core: ['base', 'platform', 'lmx', 'api', 'config', 'render'],
  // `content convert`'s engine (its readers of MJML, React Email and HTML, its layout model, its
  // mapper into LMX): files in, LMX out, so no API, no configuration and no command; areas use it.
  convert: ['base', 'platform', 'lmx', 'render'],
  areas: ['base', 'platform', 'lmx', 'emulator', 'app-code', 'api', 'config', 'render', 'core', 'webhooks', 'convert'],
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

/** The libraries that serve only a command line (parsing its arguments, colour, tables), by the files under `folders` that import them. */
function commandLineImports(folders: string[]): string[] {
  return sourceFiles('src')
    .filter((file) => folders.some((folder) => file.startsWith(folder)))
    .flatMap((file) =>
      ts
        .preProcessFile(readFileSync(join(root, file), 'utf8'), true, true)
        .importedFiles.map(({ fileName }) => fileName)
        .filter((specifier) => ['commander', 'chalk', 'cli-table3'].includes(specifier))
        .map((specifier) => `${file} -> ${specifier}`),
    );
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

/**
 * A one-line handle's target: a file whose only statement (besides its imports) loads or
 * re-exports one module (`export const engine = later(() => import('./journeys/engine.js'))`). A
 * tie through it is a tie to its target.
 */
function handleTarget(file: string, text: string): string | undefined {
  // A second statement that starts a line with `export` rules a file out before it is parsed: most of src/.
  if ((text.match(/^export\b/gm) ?? []).length > 1) return undefined;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest);
  // Imports that bind names (the lazy loader) are the handle's tools; what is left must be one export.
  const code = source.statements.filter((statement) => !ts.isImportDeclaration(statement) || statement.importClause === undefined);
  if (code.length !== 1 || !/^export\b/.test(code[0]!.getText(source))) return undefined;
  const loaded = ts.preProcessFile(code[0]!.getText(source), true, true).importedFiles.filter(({ fileName }) => fileName.startsWith('.'));
  if (loaded.length !== 1) return undefined;
  return posix.normalize(posix.join(posix.dirname(file), loaded[0]!.fileName)).replace(/\.(c|m)?js$/, (_, kind = '') => `.${kind}ts`);
}

/** The one-line handles under src/, each with the module it stands for. */
function handlesOf(imports: Map<string, string[]>): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of imports.keys()) {
    const target = handleTarget(file, readFileSync(join(root, file), 'utf8'));
    if (target !== undefined && imports.has(target)) found.set(file, target);
  }
  return found;
}

/** The imports with each import of a handle made an import of the module it stands for (through handles of handles too). */
function collapseHandles(imports: Map<string, string[]>, handled: Map<string, string>): Map<string, string[]> {
  const through = (target: string, seen = new Set<string>()): string =>
    handled.has(target) && !seen.has(target) ? through(handled.get(target)!, seen.add(target)) : target;
  return new Map([...imports].map(([file, targets]) => [file, [...new Set(targets.map((target) => through(target)))]]));
}

/** The ties between groups, as `from -> to`. */
function tiesOf(groups: Map<string, string[]>): string[] {
  return [...groups].flatMap(([from, reached]) => reached.map((to) => `${from} -> ${to}`)).sort();
}

/** The emulator's routes/ or journeys/ a file is in, none for a file elsewhere. */
function emulatorPart(file: string): string | undefined {
  return /^src\/emulator\/(routes|journeys)\//.test(file) ? file.split('/')[2] : undefined;
}

/** content's halves: each kind of record's folder, standing on shared/ and on none of the others. */
const CONTENT_HALVES = ['emails', 'workflows', 'audience'];

/** The half of content a file is in, none for a file elsewhere (the root, shared/, convert/, review/). */
function contentHalf(file: string): string | undefined {
  const [, , area, half, rest] = file.split('/');
  return area === 'content' && rest !== undefined && CONTENT_HALVES.includes(half!) ? half : undefined;
}

/** The imports by a file of content's shared/ of the rest of content, which stands on it. */
function contentImportsOfShared(imports: Map<string, string[]>): string[] {
  const shared = 'src/areas/content/shared/';
  return [...imports].flatMap(([file, targets]) =>
    file.startsWith(shared)
      ? targets.filter((target) => target.startsWith('src/areas/content/') && !target.startsWith(shared)).map((target) => `${file} -> ${target}`)
      : [],
  );
}

/** The pairs of folders with one parent whose files import each other's, a handle's tie counted: `parent: a <-> b`. */
function twoWaySiblings(imports: Map<string, string[]>): string[] {
  const ties = new Set<string>();
  for (const [file, targets] of imports)
    for (const target of targets) {
      const from = file.split('/');
      const to = target.split('/');
      let shared = 0;
      while (shared < from.length - 1 && shared < to.length - 1 && from[shared] === to[shared]) shared += 1;
      // Both sides must be folders under the parent they share: a file beside a folder is its floor's business.
      if (shared < from.length - 1 && shared < to.length - 1) ties.add(`${from.slice(0, shared).join('/')}: ${from[shared]} -> ${to[shared]}`);
    }
  return [...ties]
    .flatMap((tie) => {
      const [parent, pair] = tie.split(': ') as [string, string];
      const [a, b] = pair.split(' -> ') as [string, string];
      return a < b && ties.has(`${parent}: ${b} -> ${a}`) ? [`${parent}: ${a} <-> ${b}`] : [];
    })
    .sort();
}

/** A file right at src/areas/' root, the registries' place. */
function atAreasRoot(file: string): boolean {
  return /^src\/areas\/[^/]+$/.test(file);
}

/** The files at areas/' root that read no area, directly or through another registry there: helpers, which belong below the areas. */
function rootHelpers(imports: Map<string, string[]>): string[] {
  return [...imports.keys()].filter((file) => atAreasRoot(file) && areasReadBy(imports, file).size === 0).sort();
}

/** The areas a file at areas/' root reads: those it imports, and those the registries it imports there read. */
function areasReadBy(imports: Map<string, string[]>, registry: string, seen = new Set<string>()): Set<string> {
  const read = new Set<string>();
  seen.add(registry);
  for (const target of imports.get(registry) ?? []) {
    const area = areaOf(target);
    if (area !== undefined) read.add(area);
    else if (atAreasRoot(target) && !seen.has(target)) for (const further of areasReadBy(imports, target, seen)) read.add(further);
  }
  return read;
}

/** The imports by an area's file of a registry at areas/' root that reads that area back. */
function registriesReadBack(imports: Map<string, string[]>): string[] {
  return [...imports].flatMap(([file, targets]) => {
    const area = areaOf(file);
    if (area === undefined) return [];
    return targets.filter((target) => atAreasRoot(target) && areasReadBy(imports, target).has(area)).map((target) => `${file} -> ${target}`);
  });
}

/** The areas of webhooks: the app's side and the journal's commands, and the ground they share. */
const WEBHOOK_AREAS = ['deliveries', 'webhooks', 'webhooks-shared'];

/**
 * The imports by a file of WEBHOOK_AREAS of another area's file, but webhooks-shared/'s by the other
 * two, and metrics/' by deliveries/: `deliveries reconcile` holds the journal against the metrics
 * store's snapshots (metrics/ imports no webhooks area, so the tie goes one way).
 */
function webhookGroundTies(imports: Map<string, string[]>): string[] {
  return [...imports].flatMap(([file, targets]) => {
    const from = areaOf(file);
    if (from === undefined || !WEBHOOK_AREAS.includes(from)) return [];
    return targets
      .filter((target) => {
        const to = areaOf(target);
        // deliveries reconcile reads the account: its counters as metrics/ reads them, its contacts by contacts/' client.
        const readsAccount = from === 'deliveries' && (to === 'metrics' || target === 'src/areas/contacts/client.ts');
        return to !== undefined && to !== from && to !== 'webhooks-shared' && !readsAccount;
      })
      .map((target) => `${file} -> ${target}`);
  });
}

/** The imports of an area's files (a folder under src/areas/) by the change cycle's. */
function areaImportsOfChange(imports: Map<string, string[]>): string[] {
  return [...imports].flatMap(([file, targets]) =>
    file.startsWith('src/areas/change/')
      ? targets.filter((target) => areaOf(target) !== undefined && areaOf(target) !== 'change').map((target) => `${file} -> ${target}`)
      : [],
  );
}
