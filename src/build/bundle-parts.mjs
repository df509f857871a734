/**
 * Which bundle of the build (src/build/build.mjs) holds each module of its graph: esbuild's inputs,
 * each with what it imports.
 */

/** The modules `from` imports, directly or not, without waiting for a dynamic import(). */
export function staticClosure(graph, from) {
  const reached = new Set([from]);
  for (const path of reached) for (const imported of graph.get(path)) if (imported.kind !== 'dynamic-import') reached.add(imported.path);
  return reached;
}

/**
 * Which bundle holds a module: cli.cjs has what every start needs (the directory of areas, the
 * top-level commands' declarations, help, errors, the command context); then each area's
 * declarations and commands have a bundle of their own
 * (areas-ips.cjs, with any package that area alone uses, and the area's shapes and rules from
 * src/platform/<area>/), the API client, the ground floor, zod and the shapes every area shares one (client.cjs), the
 * emulator with its routes one (emulator.cjs), LMX one (lmx.cjs: `content check` and the
 * emulator both read it), the reading of an app's code one (app-code.cjs: `check --code`,
 * `content review`, `migrate` and a plan's impact), the conversion of an email one (convert.cjs:
 * `content convert`, `migrate` and `content check --html`), and the rest of src/render,
 * src/config and src/core one each (render.cjs, config.cjs, core.cjs), and the delivery store of
 * `webhooks listen` and the `deliveries` commands one (delivery-store.cjs, which loads pg from
 * dist/vendor/ only for a postgres:// store). So a command reads its own area and what it uses.
 */
/**
 * The ground floor (src/base/) and zod go with the API client: what of the floor a start needs is
 * in cli.cjs already, and the rest (the socket pool, zod's set-up, files and locks) serves the
 * commands that read or write something. zod's unused parts are left out only where one bundle
 * holds all of its importers.
 */
const WITH_THE_CLIENT = /^(src\/api\/|src\/base\/|src\/platform\/[\w-]+\.ts$|node_modules\/zod\/)/;

/**
 * Modules in a bundle other than their folder's. Those that offline commands need without the API
 * client or another area, in a bundle of their own: a content tree's files, read and written never
 * through a link, which `content check` of an .lmx file reads with, and where the rules file is and what it
 * makes of a finding, which that check asks too (in client.cjs or areas-check.cjs, that check
 * would read zod and the client with them). And a listing's run, with the list writer it loads
 * (in core.cjs, a listing read that bundle for it alone).
 */
const PLACED_APART = new Map([
  ['src/base/tree-files.ts', 'tree-files'],
  ['src/base/tree-writes.ts', 'tree-files'],
  ['src/areas/check/rules-lookup.ts', 'tree-files'],
  ['src/core/list-run.ts', 'render'],
  // What the `deliveries` commands' filters read, with the store they query (see partOf).
  ['src/platform/webhooks/event-names.ts', 'delivery-store'],
  ['src/areas/webhooks-shared/event-pattern.ts', 'delivery-store'],
  ['src/base/instant.ts', 'delivery-store'],
  // Where a message keeps each kind of variable's fallbacks, which LMX's parser names in a problem's fix.
  ['src/platform/email-messages/fallbacks.ts', 'lmx'],
]);

/** The commands that convert an email (the declaration stays with its area's, which help reads). */
const CONVERT_COMMANDS = /^src\/areas\/content\/convert\/(?!declare\.ts$)/;

export function partOf(core, graph) {
  const sourcePart = (path) => {
    if (core.has(path)) return 'cli';
    if (path.startsWith('src/emulator/')) return 'emulator';
    if (path.startsWith('src/lmx/')) return 'lmx';
    if (path.startsWith('src/app-code/')) return 'app-code';
    // convert's engine and its commands, which few runs read: the npm package keeps it compressed.
    if (path.startsWith('src/convert/') || CONVERT_COMMANDS.test(path)) return 'convert';
    if (path.startsWith('src/webhooks/store/')) return 'delivery-store';
    if (PLACED_APART.has(path)) return PLACED_APART.get(path);
    if (WITH_THE_CLIENT.test(path)) return 'client';
    const area = /^src\/(?:areas|platform)\/([\w-]+)\//.exec(path)?.[1];
    if (area !== undefined) return `areas-${area}`;
    if (path.startsWith('src/render/')) return 'render';
    if (path.startsWith('src/config/')) return 'config';
    return 'core';
  };
  const packages = packageParts(graph, sourcePart);
  return (path) => packages.get(path) ?? sourcePart(path);
}

/**
 * A package that the modules of one bundle alone import (diff, for `content`) goes in
 * that bundle, so the others do not read it; a package shared by several goes in core.cjs.
 */
function packageParts(graph, sourcePart) {
  const importers = new Map();
  for (const [path, imports] of graph) for (const { path: imported } of imports) importers.set(imported, [...(importers.get(imported) ?? []), path]);
  const parts = new Map();
  const partOfPackage = (path, seen) => {
    if (!path.startsWith('node_modules/') || path.startsWith('node_modules/zod/') || sourcePart(path) === 'cli') return sourcePart(path);
    if (parts.has(path)) return parts.get(path);
    if (seen.has(path)) return undefined;
    seen.add(path);
    const owners = new Set((importers.get(path) ?? []).map((importer) => partOfPackage(importer, seen)).filter((part) => part !== undefined));
    const part = owners.size === 1 ? [...owners][0] : 'core';
    parts.set(path, part);
    return part;
  };
  for (const path of graph.keys()) partOfPackage(path, new Set());
  return parts;
}
