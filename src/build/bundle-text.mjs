/**
 * What the build checks and changes in the bundles' text once esbuild has written them.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { decode } from '@jridgewell/sourcemap-codec';

/**
 * Checks each bundle that bin/loopsctl.js runs and rewrites it in place (shareNamespaces,
 * nameModuleInits, then namespacesOnInit, which reads the bundle's source map): each file read
 * once and written once.
 */
export async function finishBundles(files) {
  for (const file of files) {
    const source = await readFile(file, 'utf8');
    refuseDynamicImport(file, source);
    const { sources, mappings } = JSON.parse(await readFile(`${file}.map`, 'utf8'));
    await writeFile(file, namespacesOnInit(nameModuleInits(shareNamespaces(source)), sourceAt(source, sources, mappings)));
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

const ESM_HELPER =
  'var __esm=(fn,res,err)=>function(){if(err)throw err[0];try{return fn&&(res=(0,fn[__getOwnPropNames(fn)[0]])(fn=0)),res}catch(e){throw err=[e],e}};';

/**
 * esbuild makes every module's namespace (the object that importers in other bundles and dynamic
 * importers read its exports from) at the bundle's top level: an object literal of getters, one
 * shape of its own each, defined on the namespace a property at a time (`__export(x_exports, {a:
 * () => a, …})`). A `--sandbox` start so makes some 130 literals and 500 properties as it loads
 * its bundles, most of them for modules it never starts (the emulator's routes, an area's other
 * commands). A module that esbuild starts on first use (`__esm`) makes its namespace when it
 * starts instead: its call becomes a function that makes the literal (`__ns=_=>[x_exports, {…}]`,
 * the same length), which the `__esm` right after it, its own (the source map says so), takes
 * and calls before the module's body runs, so that nothing reads the namespace before. Any other
 * `__export` is left as it is. The `__esm` helper is rewritten at its length, padded with spaces,
 * and what it calls appended to the bundle, so that the source map holds. `sourceOf` gives the
 * source a position of the bundle comes from. Fails when esbuild writes the helpers otherwise.
 */
export function namespacesOnInit(source, sourceOf) {
  if (!source.includes('var __esm=')) return source;
  if (!source.includes(ESM_HELPER) || !/__export=\(target,all\)=>/.test(source))
    throw new Error(`esbuild no longer writes __esm or __export as expected: update ${import.meta.filename}`);
  if (/\b(__ns|__esmDefining)\b/.test(source)) throw new Error(`a bundle names __ns or __esmDefining: update ${import.meta.filename}`);
  let rewritten = '';
  let at = 0;
  for (const { index: call } of source.matchAll(/__export\(/g)) {
    const end = callEnd(source, call + '__export('.length);
    const esm = source.indexOf('__esm({', end);
    if (esm === -1 || source.lastIndexOf('__export(', esm) !== call || !/var \w+=\{\};$/.test(source.slice(call - 80, call))) continue;
    const from = sourceOf(call);
    if (from === undefined || from !== sourceOf(esm)) continue;
    const made = source.slice(call + '__export('.length, end - 1);
    // A name for the function's parameter that the literal does not read (its getters read the module's bindings).
    const parameter = [...'_$abcdefghijklmnopqrstuvwxyz'].find((name) => !new RegExp(`(^|[^\\w$])${name.replace('$', '\\$')}($|[^\\w$])`).test(made));
    if (parameter === undefined) continue;
    rewritten += `${source.slice(at, call)}__ns=${parameter}=>[${made}]`;
    at = end;
  }
  rewritten += source.slice(at);
  const helper = 'var __esm=(fn,ns=__ns)=>(__ns=0,__esmDefining(fn,ns));'.padEnd(ESM_HELPER.length);
  return `${rewritten.replace(ESM_HELPER, () => helper)}
;var __ns;function __esmDefining(fn,ns,res,err){return function(){if(err)throw err[0];try{return fn&&(ns&&__export(...ns()),res=(0,fn[__getOwnPropNames(fn)[0]])(fn=0)),res}catch(e){throw err=[e],e}}}
`;
}

/** Where the call whose arguments start at `from` ends (after its closing parenthesis), strings skipped. */
function callEnd(source, from) {
  let depth = 1;
  let index = from;
  while (depth > 0) {
    const character = source[index];
    if (character === '"' || character === "'" || character === '`') {
      for (index += 1; source[index] !== character; index += 1) if (source[index] === '\\') index += 1;
    } else if ('([{'.includes(character)) depth += 1;
    else if (')]}'.includes(character)) depth -= 1;
    index += 1;
  }
  return index;
}

/** The source (of `sources`) a position of the bundle comes from, by the source map's `mappings`. */
export function sourceAt(source, sources, mappings) {
  const lineStarts = [0];
  for (let index = source.indexOf('\n'); index !== -1; index = source.indexOf('\n', index + 1)) lineStarts.push(index + 1);
  // Each line's segments: [column, source index, …], the source index absent where the bundle comes from no source.
  const lines = decode(mappings);
  return (position) => {
    let line = lineStarts.length - 1;
    while (lineStarts[line] > position) line -= 1;
    const column = position - lineStarts[line];
    let found;
    for (const [generated, sourceIndex = -1] of lines[line] ?? []) {
      if (generated > column) break;
      found = sourceIndex;
    }
    return sources[found];
  };
}
