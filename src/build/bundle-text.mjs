/**
 * What the build checks and changes in the bundles' text once esbuild has written them.
 */
import { readFile, writeFile } from 'node:fs/promises';

/**
 * Checks each bundle that bin/loopsctl.js runs and rewrites it in place (shareNamespaces, then
 * nameModuleInits): each file read once and written once.
 */
export async function finishBundles(files) {
  for (const file of files) {
    const source = await readFile(file, 'utf8');
    refuseDynamicImport(file, source);
    await writeFile(file, nameModuleInits(shareNamespaces(source)));
  }
}

/**
 * bin/loopsctl.js runs the bundles through node:vm, where an import() that esbuild left in place
 * (of a vendored package, say) fails at run time: import such a package from a module of ours.
 */
export function refuseDynamicImport(file, source) {
  if (/\bimport\(/.test(source)) throw new Error(`${file} calls import(), which fails where bin/loopsctl.js runs it`);
}

/**
 * The bundles share each module's namespace (its exports) rather than copies of it. A module of
 * another bundle reaches its importer through two copies, each made a property at a time by
 * esbuild's helpers: the provider's require() of it copies the namespace (`__toCommonJS`), and
 * the importer's stand-in copies that again (`__toESM`). `--sandbox workflow list` links some
 * sixty modules so: a thousand property definitions, about a twentieth of its instructions. Both
 * helpers now hand on the namespace itself, whose getters read the module's live bindings as the
 * copies' did; a CommonJS package (no `__esModule`), or one imported from an ES module file, is
 * still wrapped as before. Each pair: the helper as esbuild writes it, and what it becomes.
 */
const NAMESPACE_HELPERS = [
  [
    '__toESM=(mod,isNodeMode,target)=>(target=mod!=null?__create(__getProtoOf(mod)):{},__copyProps(isNodeMode||!mod||!mod.__esModule?__defProp(target,"default",{value:mod,enumerable:!0}):target,mod))',
    '__toESM=(mod,isNodeMode,target)=>mod?.__esModule&&!isNodeMode?mod:(target=mod!=null?__create(__getProtoOf(mod)):{},__copyProps(__defProp(target,"default",{value:mod,enumerable:!0}),mod))',
  ],
  ['__toCommonJS=mod=>__copyProps(__defProp({},"__esModule",{value:!0}),mod)', '__toCommonJS=mod=>__defProp(mod,"__esModule",{value:!0})'],
];

/**
 * A bundle's text with the helpers of NAMESPACE_HELPERS that it has rewritten, padded with spaces
 * to their length so that the source map's columns stay right; fails when esbuild writes them
 * otherwise, so that an upgrade cannot drop the change unseen.
 */
export function shareNamespaces(source) {
  let shared = source;
  for (const [before, after] of NAMESPACE_HELPERS) {
    const name = before.slice(0, before.indexOf('='));
    if (!shared.includes(`${name}=`)) continue;
    if (!shared.includes(before) || after.length > before.length)
      throw new Error(`esbuild no longer writes ${name} as expected: update ${import.meta.filename}`);
    shared = shared.replace(before, () => after.padEnd(before.length));
  }
  return shared;
}

/**
 * esbuild wraps each module in a function named for its path, the one method of an object literal
 * (`__esm({"src/cli.ts"() {…}})`) that its helper calls by its first key. A literal of a key of
 * its own is a shape of its own: V8 makes a map and a boilerplate for each wrapper as a bundle
 * loads, a few hundred in a `--sandbox` start (about 4 million instructions). Every wrapper is
 * named `init` instead, padded with spaces to the path's length so that the source maps hold: one
 * shape for all. A stack trace names such a frame `init`; its position, which `--debug` maps to
 * the source, still says which module it is. Fails when esbuild's helpers call them otherwise.
 */
export function nameModuleInits(source) {
  const helpers = { __esm: 'fn[__getOwnPropNames(fn)[0]]', __commonJS: 'cb[__getOwnPropNames(cb)[0]]' };
  for (const [helper, call] of Object.entries(helpers)) {
    if (source.includes(`var ${helper}=`) && !source.includes(call))
      throw new Error(`esbuild no longer calls ${helper}'s wrappers as expected: update ${import.meta.filename}`);
  }
  return source.replace(/\b(__esm|__commonJS)\(\{("(?:[^"\\]|\\.)*")\(/g, (wrapper, helper, path) =>
    path.length < 4 ? wrapper : `${helper}({init${' '.repeat(path.length - 4)}(`,
  );
}
