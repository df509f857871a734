/**
 * One row per resource (src/platform/<area>/resource.ts): the tables that were kept by hand beside
 * the clients (record-kinds.ts, configuration-writes.ts, core/id-lists.ts) are indexes of the rows,
 * and a resource's API path is written in its row, and in the emulator's route that answers it
 * (the contract tests hold the two to the published description), nowhere else in the source.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ID_LISTS, LIST_COMMANDS } from '../../../src/core/id-lists.js';
import { CONFIGURATION_WRITES } from '../../../src/platform/configuration-writes.js';
import { RECORD_KINDS } from '../../../src/platform/record-kinds.js';
import { at } from '../../../src/platform/resource-row.js';
import { OPERATIONS, RESOURCES } from '../../../src/platform/resources.js';

const root = join(import.meta.dirname, '../../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = posix.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|cts)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The text of every string and template in a file (comments are not code). */
function stringsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) found.push(node.text);
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

/** The other places that still write a resource's path: help that shows one as an example, and the gate's reads of liveness. */
const WRITTEN_ELSEWHERE = [
  'src/areas/api/index.ts: /v1/audience-segments',
  'src/areas/api/index.ts: /v1/themes',
  'src/areas/api/request.ts: /v1/themes',
  'src/platform/liveness.ts: /v1/campaigns',
  'src/platform/liveness.ts: /v1/email-messages',
  'src/platform/liveness.ts: /v1/transactional-emails',
  'src/platform/liveness.ts: /v1/workflows',
];

describe('one row per resource', () => {
  it("writes a resource's path in its row and its emulator route, and nowhere else in the source", () => {
    const written = sourceFiles('src')
      .filter((file) => !file.startsWith('src/emulator/') && !file.endsWith('/resource.ts'))
      .flatMap((file) => {
        const strings = stringsOf(file);
        return BASES.filter((base) => strings.some((text) => text.includes(base) && !text.slice(text.indexOf(base) + base.length).match(/^[a-z-]/))).map(
          (base) => `${file}: ${base}`,
        );
      });
    expect(written.sort()).toEqual(WRITTEN_ELSEWHERE);
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

  it("fills a row's path with its ids, each one path segment", () => {
    expect(at(OPERATIONS.getWorkflowNode, 'wf/1', 'n?2')).toBe('/v1/workflows/wf%2F1/nodes/n%3F2');
    expect(() => at(OPERATIONS.getWorkflowNode, 'wf_1')).toThrow('takes 2 ids, given 1');
  });
});
