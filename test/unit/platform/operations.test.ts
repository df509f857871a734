/**
 * One row per resource (src/platform/<area>/resource.ts): the tables that were kept by hand beside
 * the clients (record-kinds.ts, configuration-writes.ts, core/id-lists.ts) are indexes of the rows,
 * and an operation's API path is written in its row, nowhere else in the source: the clients and
 * the emulator's routes name it by its operationId (the contract tests hold the rows to the
 * published description).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ID_LISTS, LIST_COMMANDS } from '../../../src/core/id-lists.js';
import { CONFIGURATION_WRITES } from '../../../src/platform/configuration-writes.js';
import { at, bodyIdsIn, idsAt } from '../../../src/platform/operation-row.js';
import { OPERATIONS, RESOURCES, ROWS } from '../../../src/platform/operations.js';
import { RECORD_KINDS } from '../../../src/platform/record-kinds.js';
import { publishedDescriptionAsWritten, type Schema } from '../../support/openapi.js';

const root = join(import.meta.dirname, '../../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = posix.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|cts)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The text of every string, template and pattern in a file (comments are not code). */
function stringsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) found.push(node.text);
    // A pattern that matches a path writes it too: `/^\/v1\/themes$/`.
    else if (ts.isRegularExpressionLiteral(node)) found.push(node.text.replaceAll('\\/', '/'));
    else if (ts.isTemplateExpression(node)) found.push(node.getText(source));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The paths of every row, each cut before its first id: what names the resource in a request. */
const BASES = [...new Set(Object.values(OPERATIONS as Record<string, { path: string }>).map(({ path }) => path.split('/{')[0]!))].filter(
  (base, _, all) => !all.some((other) => other !== base && base.startsWith(`${other}/`)),
);

/** The other places that still write a resource's path: `loopsctl api`'s help, whose examples and words are paths. */
const WRITTEN_ELSEWHERE = [
  'src/areas/api/index.ts: /v1/audience-segments',
  'src/areas/api/index.ts: /v1/dedicated-sending-ips',
  'src/areas/api/index.ts: /v1/events/send',
  'src/areas/api/index.ts: /v1/themes',
  'src/areas/api/index.ts: /v1/transactional',
  'src/areas/api/request.ts: /v1/themes',
];

const contract = publishedDescriptionAsWritten();

/** The fields of a request body's schema that carry an id (`…Id`), a field inside an object by its path; a revision names no record. */
function idFieldsOf(schema: Schema | undefined, prefix = '', seen: ReadonlySet<string> = new Set()): string[] {
  if (schema === undefined) return [];
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').pop()!;
    return seen.has(name) ? [] : idFieldsOf(contract.components.schemas[name], prefix, new Set([...seen, name]));
  }
  const parts: Schema[] = [...(schema.oneOf ?? []), ...(schema.anyOf ?? []), ...(schema.allOf ?? [])];
  return [
    ...parts.flatMap((part) => idFieldsOf(part, prefix, seen)),
    ...Object.entries((schema.properties ?? {}) as Record<string, Schema>).flatMap(([key, field]) => [
      ...(/Id$/.test(key) && !/revision/i.test(key) ? [`${prefix}${key}`] : []),
      ...idFieldsOf(field, `${prefix}${key}.`, seen),
    ]),
  ];
}

describe('one row per resource', () => {
  it("writes an operation's path in its row, and nowhere else in the source, the emulator's included", () => {
    const written = sourceFiles('src')
      .filter((file) => !file.endsWith('/resource.ts'))
      // A file whose text (a pattern's escaped slashes read as slashes) holds no row's path has no
      // string that does: only the rest are parsed, a tenth of the files.
      .filter((file) => {
        const text = readFileSync(join(root, file), 'utf8').replaceAll('\\/', '/');
        return BASES.some((base) => text.includes(base));
      })
      .flatMap((file) => {
        const strings = stringsOf(file);
        return BASES.filter((base) => strings.some((text) => text.includes(base) && !text.slice(text.indexOf(base) + base.length).match(/^[a-z-]/))).map(
          (base) => `${file}: ${base}`,
        );
      });
    expect(written.sort()).toEqual(WRITTEN_ELSEWHERE);
  });

  it('writes no path of the API outside src/platform/, but in the help of loopsctl api', () => {
    const written = sourceFiles('src')
      .filter((file) => !file.startsWith('src/platform/') && readFileSync(join(root, file), 'utf8').replaceAll('\\/', '/').includes('/v1/'))
      .flatMap((file) =>
        stringsOf(file).flatMap((text) => (/\/v1\/\w/.test(text) ? [`${file}: ${text.slice(text.indexOf('/v1/'), text.indexOf('/v1/') + 30)}`] : [])),
      );
    expect(written.filter((found) => !found.startsWith('src/areas/api/'))).toEqual([]);
  });

  it('names each operation of the published description in exactly one row, as the description writes it', () => {
    const described = Object.entries(contract.paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, { operationId?: string }>).flatMap(([method, operation]) =>
        operation.operationId === undefined ? [] : [[operation.operationId, { method: method.toUpperCase(), path }] as const],
      ),
    );
    const named = ROWS.flatMap((row) => Object.keys(row.operations));
    expect(named.filter((id, index) => named.indexOf(id) !== index)).toEqual([]);
    const rows = OPERATIONS as Record<string, { method: string; path: string }>;
    expect(Object.fromEntries(named.map((id) => [id, { method: rows[id]!.method, path: rows[id]!.path }]))).toEqual(Object.fromEntries(described));
  });

  it('derives the record kinds, the configuration writes and the id lists from the rows', () => {
    expect(Object.keys(RECORD_KINDS)).toEqual(RESOURCES.flatMap((row) => ('kind' in row ? [row.noun] : [])));
    expect(RECORD_KINDS.workflow.writes).toEqual(['workflow', 'workflow node']);
    expect(RECORD_KINDS['mailing list'].writes).toEqual([]);
    expect(CONFIGURATION_WRITES.updateWorkflowNode).toEqual({ method: 'POST', path: '/v1/workflows/{workflowId}/nodes/{nodeId}', kind: 'workflow node' });
    expect(Object.keys(CONFIGURATION_WRITES)).not.toContain('getWorkflow');
    expect(ID_LISTS['campaign-groups']).toBe('/v1/campaign-groups');
    expect(LIST_COMMANDS.workflows).toEqual(['workflow', 'list']);
  });

  it('says of each operation the ids its body carries, as the published description declares them, and what each names', () => {
    const declared = Object.fromEntries(
      Object.values(contract.paths).flatMap((item) =>
        Object.values(item as Record<string, { operationId?: string; requestBody?: { content?: Record<string, { schema: Schema }> } }>).flatMap((operation) =>
          operation.operationId === undefined
            ? []
            : [[operation.operationId, [...new Set(idFieldsOf(operation.requestBody?.content?.['application/json']?.schema))].sort()]],
        ),
      ),
    );
    const nouns = new Set(
      ROWS.flatMap((row) => [row.noun, ...Object.values(row.operations as Record<string, { writes?: string }>).map(({ writes }) => writes)]),
    );
    /**
     * What a row's path calls by the name a body's id ends with (`{audienceSegmentId}`, `{nodeId}` of
     * `newTargetNodeId`): the kind its writes of that path change, or the row's noun.
     */
    const namedInPath = (field: string) => {
      const found = ROWS.flatMap((row) =>
        Object.values(row.operations as Record<string, { path: string; writes?: string }>).flatMap(({ path, writes }) => {
          const last = /\/\{(\w+)\}$/.exec(path)?.[1];
          const named = last !== undefined && (field === last || field.endsWith(last[0]!.toUpperCase() + last.slice(1)));
          return named ? [{ writes, noun: row.noun }] : [];
        }),
      );
      return found.find(({ writes }) => writes !== undefined)?.writes ?? found[0]?.noun;
    };
    for (const [id, operation] of Object.entries(OPERATIONS as Record<string, { bodyIds?: Record<string, string> }>)) {
      expect(Object.keys(operation.bodyIds ?? {}).sort(), id).toEqual(declared[id] ?? []);
      for (const [field, names] of Object.entries(operation.bodyIds ?? {})) {
        expect(nouns, `${id} ${field}`).toContain(names);
        expect(names, `${id} ${field}`).toBe(namedInPath(field.split('.').pop()!) ?? names);
      }
    }
    expect(OPERATIONS.updateCampaign.bodyIds).toEqual({ campaignGroupId: 'campaign group', mailingListId: 'mailing list', audienceSegmentId: 'segment' });
  });

  it("fills a row's path with its ids, each one path segment", () => {
    expect(at(OPERATIONS.getWorkflowNode, 'wf/1', 'n?2')).toBe('/v1/workflows/wf%2F1/nodes/n%3F2');
    expect(() => at(OPERATIONS.getWorkflowNode, 'wf_1')).toThrow('takes 2 ids, given 1');
    expect(idsAt(OPERATIONS.getWorkflowNode, '/v1/workflows/wf%2F1/nodes/n%3F2?x=1')).toEqual(['wf/1', 'n?2']);
    expect(idsAt(OPERATIONS.getWorkflowNode, '/v1/workflows/wf_1')).toBeUndefined();
  });

  it('reads the ids a body carries where its row says, a null one too', () => {
    expect(bodyIdsIn(OPERATIONS.updateWorkflowNode, { expectedRevisionId: 'r', payload: { audienceSegmentId: null, eventName: 'x' } })).toEqual([
      { field: 'payload.audienceSegmentId', names: 'segment', id: null },
    ]);
    expect(bodyIdsIn(OPERATIONS.getWorkflow, { workflowId: 'w' })).toEqual([]);
  });
});
