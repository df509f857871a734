#!/usr/bin/env node
/**
 * Derives the API contract the tests check against (test/contract/loops-1.22.1.json) from the
 * published OpenAPI description (1.22.1), which sits beside the project, not in it
 * (../shared/reference/loops-openapi-1.22.1.yaml). The contract keeps what a request or an answer
 * must be: the operations (by path, method and operationId), their parameters, request bodies and
 * responses by status, the component schemas and parameters, the security schemes and the webhooks'
 * payloads, with every $ref kept as written. It drops the prose and what only the documentation
 * site reads: descriptions, summaries, titles, examples, tags, servers and x- extensions.
 *
 *   node scripts/derive-contract.mjs                 writes the contract (npm run contract)
 *   node scripts/derive-contract.mjs --check         exits 1 when the committed contract is not what
 *                                                    the published description derives
 *   node scripts/derive-contract.mjs --from <file>   derives from another copy of the description
 *                                                    (LOOPS_OPENAPI_FILE names one too)
 *
 * Exit codes: 0 done (or the contract is up to date), 1 the contract differs, 2 no description.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const CONTRACT = resolve(root, 'test/contract/loops-1.22.1.json');
/** The published description beside the project; LOOPS_OPENAPI_FILE names another copy, as it does for the tests. */
export const PUBLISHED = process.env.LOOPS_OPENAPI_FILE ?? resolve(root, '../shared/reference/loops-openapi-1.22.1.yaml');

/** Keys whose value is prose or documentation-site metadata, wherever an object of the description has them. */
const DROPPED = new Set(['description', 'summary', 'title', 'example', 'examples', 'tags', 'externalDocs', 'servers']);

/** Keys whose value is a map from names (of fields, paths, statuses, media types, schemas) to objects: its keys are names, never dropped. */
const NAMED = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'paths',
  'webhooks',
  'schemas',
  'responses',
  'content',
  'securitySchemes',
  'headers',
  'requestBodies',
  'encoding',
]);

/** Keys whose value is data of the contract itself (allowed values, required names, defaults), copied as written. */
const LITERAL = new Set(['enum', 'const', 'default', 'required', 'security', 'mapping']);

/** The contract of one node of the description; `named` when its keys are names, not OpenAPI keywords. */
function contractOf(node, named = false) {
  if (Array.isArray(node)) return node.map((item) => contractOf(item));
  if (node === null || typeof node !== 'object') return node;
  const kept = {};
  for (const [key, value] of Object.entries(node)) {
    if (named) {
      kept[key] = contractOf(value);
      continue;
    }
    if (DROPPED.has(key) || key.startsWith('x-')) continue;
    if (LITERAL.has(key) || (key === 'required' && typeof value === 'boolean')) kept[key] = value;
    // components.parameters is a map of names; an operation's parameters, a list.
    else kept[key] = contractOf(value, NAMED.has(key) || (key === 'parameters' && !Array.isArray(value)));
  }
  return kept;
}

/** The contract the published description derives. */
export function deriveContract(description) {
  const { openapi, info, paths, webhooks, components } = description;
  return {
    $comment: 'Derived from the published Loops OpenAPI description by scripts/derive-contract.mjs (npm run contract); do not edit.',
    openapi,
    info: { version: info.version },
    paths: contractOf(paths, true),
    webhooks: contractOf(webhooks, true),
    components: contractOf(components),
  };
}

/** The first few JSON paths where two contracts differ. */
function differences(a, b, at = '$', found = []) {
  if (found.length >= 20) return found;
  if (JSON.stringify(a) === JSON.stringify(b)) return found;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(a) !== Array.isArray(b)) {
    found.push(`${at}: ${JSON.stringify(a)?.slice(0, 80)} where the description derives ${JSON.stringify(b)?.slice(0, 80)}`);
    return found;
  }
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (!(key in a)) found.push(`${at}.${key}: missing`);
    else if (!(key in b)) found.push(`${at}.${key}: not in the description`);
    else differences(a[key], b[key], `${at}.${key}`, found);
  }
  if (found.length === 0) found.push(`${at}: the keys are in another order`);
  return found;
}

function main(argv) {
  const check = argv.includes('--check');
  const fromAt = argv.indexOf('--from');
  const source = fromAt === -1 ? PUBLISHED : resolve(argv[fromAt + 1] ?? '');
  if (!existsSync(source)) {
    process.stderr.write(
      `${source} not found: the published OpenAPI description (1.22.1) is needed to derive the contract; give another copy with --from <file>\n`,
    );
    return 2;
  }
  const derived = deriveContract(parse(readFileSync(source, 'utf8')));
  const name = relative(process.cwd(), CONTRACT) || CONTRACT;
  if (check) {
    const committed = existsSync(CONTRACT) ? JSON.parse(readFileSync(CONTRACT, 'utf8')) : undefined;
    const found = committed === undefined ? [`${name} does not exist`] : differences(committed, derived);
    if (found.length === 0) {
      process.stdout.write(`${name} is what ${source} derives\n`);
      return 0;
    }
    process.stderr.write(
      `${name} is not what ${source} derives; run \`npm run contract\` and commit the result:\n${found.map((line) => `  ${line}`).join('\n')}\n`,
    );
    return 1;
  }
  writeFileSync(CONTRACT, `${JSON.stringify(derived, null, 2)}\n`);
  // As the rest of the tree is formatted, so that `npm run lint` passes on a fresh contract.
  execFileSync(resolve(root, 'node_modules/.bin/biome'), ['format', '--write', CONTRACT], { stdio: 'ignore' });
  process.stdout.write(`wrote ${name} from ${source}\n`);
  return 0;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
