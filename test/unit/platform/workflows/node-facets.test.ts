/**
 * The lists derived from the table of node types, pinned as they are: the fields a plan leaves to
 * the app, the types the API creates (in the order --help and the API's refusal name them), what a
 * new node starts with, the paths a branch brings, the fields a file holds, and a timer's units.
 */
import { describe, expect, it } from 'vitest';
import { addedPathOf, defaultPathsOf, newNodeSettings, newTriggerSettings } from '../../../../src/platform/workflows/creation.js';
import { CREATABLE_NODE_TYPES, fileFieldsOf } from '../../../../src/platform/workflows/node-facets.js';
import { absentWhenCleared, clearedByNull, describeNode, readOnlyFields } from '../../../../src/platform/workflows/node-types.js';
import { timerWait } from '../../../../src/platform/workflows/running.js';

const TYPES = [
  'SignupTrigger',
  'BlankTrigger',
  'EventTrigger',
  'ContactPropertyTrigger',
  'AddToListTrigger',
  'AudienceFilter',
  'TimerAction',
  'SendEmailAction',
  'BranchNode',
  'ExperimentBranchNode',
  'VariantNode',
  'ExitAction',
];

describe('the lists derived from the node types', () => {
  it('the creatable types, in the order the API names them', () => {
    expect(CREATABLE_NODE_TYPES).toEqual(['AudienceFilter', 'BranchNode', 'ExperimentBranchNode', 'TimerAction', 'SendEmailAction', 'VariantNode']);
  });

  it('the fields an update cannot set', () => {
    expect([...readOnlyFields()].sort()).toEqual(['eventProperties', 'experimentType', 'url']);
  });

  it('the fields an update clears with null: in a file, and those the node then lacks', () => {
    expect([...clearedByNull()].sort()).toEqual(['audienceFilter', 'eventName', 'segment']);
    expect([...absentWhenCleared()].sort()).toEqual(['audienceFilter', 'audienceSegmentId']);
  });

  it("each type's fields in a file, in the order they are written", () => {
    expect(Object.fromEntries(TYPES.map((type) => [type, fileFieldsOf(type)]))).toEqual({
      SignupTrigger: [],
      BlankTrigger: [],
      EventTrigger: ['eventName', 'eventProperties', 'reEligible'],
      ContactPropertyTrigger: ['contactPropertyQuery', 'reEligible'],
      AddToListTrigger: ['reEligible'],
      AudienceFilter: ['segment', 'audienceFilter', 'appliesDownstream'],
      TimerAction: ['amount', 'unit'],
      SendEmailAction: ['email'],
      BranchNode: [],
      ExperimentBranchNode: ['samplingRate', 'experimentType', 'url'],
      VariantNode: ['isControl'],
      ExitAction: [],
    });
    expect(fileFieldsOf('FutureNode')).toBeUndefined();
  });

  it('what a new node starts with, and a trigger another is turned into', () => {
    expect(Object.fromEntries(CREATABLE_NODE_TYPES.map((type) => [type, newNodeSettings(type)]))).toEqual({
      AudienceFilter: { appliesDownstream: false },
      BranchNode: {},
      ExperimentBranchNode: { samplingRate: 50, experimentType: 'autosplit' },
      TimerAction: { amount: 1, unit: 'd' },
      SendEmailAction: {},
      VariantNode: { isControl: false },
    });
    expect(newNodeSettings('VariantNode', true)).toEqual({ isControl: true });
    expect(Object.fromEntries(TYPES.slice(0, 5).map((type) => [type, newTriggerSettings(type, 'list-1')]))).toEqual({
      SignupTrigger: {},
      BlankTrigger: {},
      EventTrigger: { eventName: null, reEligible: false },
      ContactPropertyTrigger: { contactPropertyQuery: null, reEligible: false },
      AddToListTrigger: { mailingListId: 'list-1', reEligible: false },
    });
  });

  it('the paths a branch brings, and the one another branch adds', () => {
    const filter = { type: 'AudienceFilter', isControl: false };
    const variant = { type: 'VariantNode', isControl: false };
    expect(Object.fromEntries(TYPES.map((type) => [type, defaultPathsOf(type)]).filter(([, paths]) => paths.length > 0))).toEqual({
      BranchNode: [filter, filter],
      ExperimentBranchNode: [variant, variant, { type: 'VariantNode', isControl: true }],
    });
    expect(Object.fromEntries(TYPES.flatMap((type) => (addedPathOf(type) === undefined ? [] : [[type, addedPathOf(type)]])))).toEqual({
      BranchNode: 'AudienceFilter',
      ExperimentBranchNode: 'VariantNode',
    });
  });

  it("a timer's units: how long each is, and its words", () => {
    const wait = (amount: number, unit: string) => timerWait({ id: 't', typeName: 'TimerAction', nextNodeIds: [], amount, unit });
    expect([wait(1, 's'), wait(2, 'm'), wait(1, 'h'), wait(3, 'd'), wait(1, 'w')]).toEqual([
      { ms: 1_000, words: '1 second' },
      { ms: 120_000, words: '2 minutes' },
      { ms: 3_600_000, words: '1 hour' },
      { ms: 259_200_000, words: '3 days' },
      undefined,
    ]);
    const described = (amount: unknown, unit: string) => describeNode({ typeName: 'TimerAction', nextNodeIds: [], amount, unit });
    expect([described(1, 's'), described(90, 'm'), described(1, 'h'), described(2, 'd'), described(3, 'w')]).toEqual([
      'wait 1 second',
      'wait 90 minutes',
      'wait 1 hour',
      'wait 2 days',
      'wait 3 w',
    ]);
  });
});
