/**
 * The one mapping between a workflow file's nodes and the API's: every node type goes from its
 * file to the API and back unchanged, the API's node is one the API's shape takes, and the file's
 * node one the file's rules take.
 */
import { describe, expect, it } from 'vitest';
import { emailPathOf, type FileNode } from '../../../../src/platform/workflows/file.js';
import { type ApiNames, type FileNames, needsFullView, toApiFields, toApiNode, toFileNode } from '../../../../src/platform/workflows/file-nodes.js';
import { fileFieldsOf, NODE_TYPE_NAMES } from '../../../../src/platform/workflows/node-facets.js';
import { workflowProblems } from '../../../../src/platform/workflows/rules.js';
import { workflowNode } from '../../../../src/platform/workflows/schemas.js';

/** A value for every field a file can hold. */
const SAMPLES: Record<string, (key: string) => unknown> = {
  eventName: () => 'trial_started',
  eventProperties: () => [{ name: 'plan', type: 'string' }],
  reEligible: () => true,
  contactPropertyQuery: () => ({ key: 'plan', was: { value: 'free', operator: 'equal' }, is: { value: 'pro', operator: 'equal' } }),
  segment: () => 'Paying customers',
  audienceFilter: () => ({ match: 'all', conditions: [{ type: 'property', key: 'seats', operator: 'greaterThan', value: 10 }] }),
  appliesDownstream: () => true,
  amount: () => 2,
  unit: () => 'h',
  email: (key) => emailPathOf(key),
  samplingRate: () => 30,
  experimentType: () => 'webhook',
  url: () => 'https://example.com/experiment',
  isControl: () => true,
};

const segments = new Map([['Paying customers', 'segment-1']]);
const toApi: ApiNames = {
  nodeId: (key) => `id-${key}`,
  segmentId: (name) => segments.get(name),
  email: (_path, key) => ({ emailMessageId: `message-${key}` }),
};
const toFile: FileNames = {
  nodeKey: (id) => id.replace(/^id-/, ''),
  segmentName: (id) => [...segments].find(([, each]) => each === id)![0],
};

function fileNodeOf(type: string, key: string): FileNode {
  const fields = fileFieldsOf(type)!.map((field) => [field, SAMPLES[field]!(key)]);
  return { type, next: type === 'ExitAction' ? [] : ['exit'], ...Object.fromEntries(fields) };
}

describe('a node of a workflow file and of the API', () => {
  it('has a sample for every field a file holds', () => {
    expect(NODE_TYPE_NAMES.flatMap((type) => fileFieldsOf(type)!).filter((field) => SAMPLES[field] === undefined)).toEqual([]);
  });

  it.each(NODE_TYPE_NAMES)('goes from its file to the API and back unchanged: %s', (type) => {
    const key = type.toLowerCase();
    const file = fileNodeOf(type, key);
    const api = toApiNode(file, key, toApi);
    expect(api.typeName).toBe(type);
    expect(api.nextNodeIds).toEqual(file.next.map((next) => `id-${next}`));
    // The API's shape of the node takes it, and the file's rules take the file's.
    expect(workflowNode.safeParse({ ...api, id: `id-${key}`, workflowId: 'w' }).error).toBeUndefined();
    expect(toFileNode(api, key, toFile)).toEqual(file);
  });

  it('names a segment by its id and an email by its message in the API, by name and path in a file', () => {
    const file = fileNodeOf('AudienceFilter', 'paying');
    expect(toApiNode(file, 'paying', toApi)).toMatchObject({ audienceSegmentId: 'segment-1' });
    expect(toApiNode(file, 'paying', toApi)).not.toHaveProperty('segment');
    expect(toApiNode(fileNodeOf('SendEmailAction', 'welcome'), 'welcome', toApi)).toEqual({
      typeName: 'SendEmailAction',
      nextNodeIds: ['id-exit'],
      emailMessageId: 'message-welcome',
    });
    // A segment the names do not know is left out, as an email with nothing to stand for it.
    expect(toApiNode(file, 'paying', { segmentId: () => undefined })).toEqual({
      typeName: 'AudienceFilter',
      nextNodeIds: ['exit'],
      audienceFilter: SAMPLES.audienceFilter!('paying'),
      appliesDownstream: true,
    });
  });

  it("maps an update's payload, null clearing a segment, and keeps a trigger's new type", () => {
    expect(toApiFields({ typeName: 'EventTrigger', segment: null, amount: 3 }, 'node', toApi)).toEqual({
      typeName: 'EventTrigger',
      audienceSegmentId: null,
      amount: 3,
    });
  });

  it('keeps every field of a type it does not know, both ways', () => {
    const file = { type: 'Teleport', next: ['exit'], segment: 'Paying customers', destination: 'moon' };
    const api = toApiNode(file, 'teleport', toApi);
    expect(api).toEqual({ typeName: 'Teleport', nextNodeIds: ['id-exit'], segment: 'Paying customers', destination: 'moon' });
    expect(toFileNode(api, 'teleport', toFile)).toEqual(file);
  });

  it('reads in full the nodes whose graph view lacks a field their file keeps', () => {
    expect(NODE_TYPE_NAMES.filter(needsFullView)).toEqual(['EventTrigger', 'AudienceFilter', 'ExperimentBranchNode']);
  });

  it('makes a file of every type that the rules take, from the API', () => {
    const nodes = Object.fromEntries(
      ['EventTrigger', 'TimerAction', 'SendEmailAction', 'ExitAction'].map((type) => {
        const key = type === 'ExitAction' ? 'exit' : type.toLowerCase();
        return [key, toFileNode(toApiNode(fileNodeOf(type, key), key, toApi), key, toFile)];
      }),
    );
    nodes.eventtrigger!.next = ['timeraction'];
    nodes.timeraction!.next = ['sendemailaction'];
    expect(workflowProblems({ name: 'w', root: 'eventtrigger', nodes })).toEqual([]);
  });
});
