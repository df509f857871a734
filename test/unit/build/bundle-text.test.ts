/**
 * The bundles hand a module's namespace from one to another without copying it, name every
 * module's wrapper alike, and make a module's namespace when it starts (src/build/bundle-text.mjs):
 * checked on what esbuild writes with the build's settings, a module reached through require() and
 * through a stand-in of the kind the build links bundles with.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { runInThisContext } from 'node:vm';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { nameModuleInits, namespacesOnInit, shareNamespaces, sourceAt } from '../../../src/build/bundle-text.mjs';
import { tempDir } from '../../support/temp.js';

/** A bundle as the build writes one: an ES module required by name, as a bundle's `modules` table does, and imported through a CommonJS stand-in. */
async function bundled(dir: string): Promise<string> {
  writeFileSync(join(dir, 'counter.mjs'), 'export let count = 0;\nexport function add() { count += 1; }\n');
  writeFileSync(join(dir, 'stand-in.cjs'), "module.exports = require('./counter.mjs');\n");
  writeFileSync(join(dir, 'importer.mjs'), "import { add, count } from './stand-in.cjs';\nexport function addAndRead() { add(); return count; }\n");
  writeFileSync(join(dir, 'entry.cjs'), "exports.modules = { counter: () => require('./counter.mjs'), importer: () => require('./importer.mjs') };\n");
  const file = join(dir, 'bundle.cjs');
  await build({
    entryPoints: [join(dir, 'entry.cjs')],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    minifyWhitespace: true,
    minifySyntax: true,
    outfile: file,
    sourcemap: 'external',
    logLevel: 'silent',
  });
  return file;
}

function run(file: string): { modules: Record<string, () => Record<string, unknown>> } {
  const module = { exports: {} as { modules: Record<string, () => Record<string, unknown>> } };
  runInThisContext(`(function (exports, require, module) {${readFileSync(file, 'utf8')}\n})`)(module.exports, createRequire(file), module);
  return module.exports;
}

/** Runs the bundle: each module started once, its namespace's bindings live, its exports as written. */
function expectModulesWork(file: string): void {
  const { modules } = run(file);
  const counter = modules.counter!();
  expect(modules.counter!()).toBe(counter);
  expect(Object.keys(counter).sort()).toEqual(['add', 'count']);
  expect((modules.importer!().addAndRead as () => number)()).toBe(1);
  expect(counter.count).toBe(1);
}

describe("the bundles' namespaces", () => {
  it('are handed on themselves, their bindings live, the bundle the same length', async () => {
    const dir = tempDir('bundle-text-');
    const file = await bundled(dir);
    const before = readFileSync(file, 'utf8');
    const after = shareNamespaces(before);
    writeFileSync(file, after);
    expect(after).not.toBe(before);
    expect(after.length).toBe(before.length);

    expectModulesWork(file);
  });

  it('refuse helpers that esbuild writes otherwise', () => {
    expect(() => shareNamespaces('var __toCommonJS=mod=>mod;\n')).toThrow(/no longer writes __toCommonJS as expected/);
  });
});

describe("the bundles' module wrappers", () => {
  it('are all named init, each module still started once, the bundle the same length', async () => {
    const file = await bundled(tempDir('bundle-text-'));
    const before = shareNamespaces(readFileSync(file, 'utf8'));
    const after = nameModuleInits(before);
    writeFileSync(file, after);
    expect(before).toMatch(/__esm\(\{"[^"]+"\(/);
    expect(before).toMatch(/__commonJS\(\{"[^"]+"\(/);
    expect(after).not.toMatch(/(__esm|__commonJS)\(\{"/);
    expect(after).toMatch(/__esm\(\{init +\(/);
    expect(after.length).toBe(before.length);

    expectModulesWork(file);
  });

  it('refuse helpers that call them otherwise', () => {
    expect(() => nameModuleInits('var __esm=(fn,res)=>function(){return fn.init()};\n')).toThrow(/no longer calls __esm's wrappers as expected/);
  });
});

describe("the bundles' namespaces made on start", () => {
  it('are made by the module that starts, each module still started once, the bundle the same length', async () => {
    const file = await bundled(tempDir('bundle-text-'));
    const before = nameModuleInits(shareNamespaces(readFileSync(file, 'utf8')));
    const { sources, mappings } = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[]; mappings: string };
    const after = namespacesOnInit(before, sourceAt(before, sources, mappings));
    writeFileSync(file, after);
    // Each module's call of __export is now a function of the same length, which its __esm calls.
    expect(before.match(/__export\(\w+,/g)).toHaveLength(2);
    expect(after.match(/__ns=_=>\[\w+,/g)).toHaveLength(2);
    expect(after).not.toMatch(/__export\(\w+,/);
    // What it calls comes after the bundle, which keeps its length.
    expect(after.indexOf('\n;var __ns;')).toBe(before.length);

    expectModulesWork(file);
  });

  it('reads which source each place of the bundle comes from', async () => {
    const file = await bundled(tempDir('bundle-text-'));
    const source = readFileSync(file, 'utf8');
    const { sources, mappings } = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[]; mappings: string };
    const sourceOf = sourceAt(source, sources, mappings);
    expect(sourceOf(source.indexOf('count+=1'))).toMatch(/counter\.mjs$/);
    expect(sourceOf(source.indexOf('addAndRead()'))).toMatch(/importer\.mjs$/);
  });

  it('refuse helpers that esbuild writes otherwise', () => {
    expect(() => namespacesOnInit('var __esm=(fn)=>fn;var __export=(target,all)=>{};\n', () => undefined)).toThrow(
      /no longer writes __esm or __export as expected/,
    );
  });

  it("leave a namespace where it is when the __esm after it is another module's", async () => {
    const before = nameModuleInits(shareNamespaces(readFileSync(await bundled(tempDir('bundle-text-')), 'utf8')));
    // Every place of the bundle said to come from a source of its own: no call is its wrapper's.
    const after = namespacesOnInit(before, (position) => `source ${position}`);
    expect(after.match(/__export\(\w+,/g)).toHaveLength(2);
    expect(after).not.toMatch(/__ns=\w+=>\[/);
  });

  it('refuse a bundle that already names what the rewrite adds', async () => {
    const before = nameModuleInits(shareNamespaces(readFileSync(await bundled(tempDir('bundle-text-')), 'utf8')));
    expect(() => namespacesOnInit(`${before}\nvar __ns=1;\n`, () => undefined)).toThrow(/names __ns or __esmDefining/);
    expect(() => namespacesOnInit(`${before}\nfunction __esmDefining(){}\n`, () => undefined)).toThrow(/names __ns or __esmDefining/);
  });
});
