/**
 * What the build checks and changes in the bundles' text once esbuild has written them.
 */
import { readFile, writeFile } from 'node:fs/promises';

/**
 * bin/loopsctl.js runs the bundles through node:vm, where an import() that esbuild left in place
 * (of a vendored package, say) fails at run time: import such a package from a module of ours.
 */
export async function refuseDynamicImports(files) {
  for (const file of files) {
    if (/\bimport\(/.test(await readFile(file, 'utf8'))) throw new Error(`${file} calls import(), which fails where bin/loopsctl.js runs it`);
  }
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
 * Rewrites the helpers of NAMESPACE_HELPERS in each bundle that has them, padded with spaces to
 * their length so that the source map's columns stay right; fails when esbuild writes them
 * otherwise, so that an upgrade cannot drop the change unseen.
 */
export async function shareNamespaces(files) {
  for (const file of files) {
    let source = await readFile(file, 'utf8');
    for (const [before, after] of NAMESPACE_HELPERS) {
      const name = before.slice(0, before.indexOf('='));
      if (!source.includes(`${name}=`)) continue;
      if (!source.includes(before) || after.length > before.length)
        throw new Error(`esbuild no longer writes ${name} as expected: update ${import.meta.filename}`);
      source = source.replace(before, () => after.padEnd(before.length));
    }
    await writeFile(file, source);
  }
}
