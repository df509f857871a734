/**
 * The words each reader has for a kind of record come from the one table of record kinds
 * (src/platform/record-kinds.ts): `--kind`'s choices, `check`'s findings, LMX's kinds, a content
 * tree's directories and the kinds of unit a plan holds.
 */
import { describe, expect, it } from 'vitest';
import type { PlannedUnit } from '../../../src/areas/change/plan-file.js';
import { FINDING_KINDS } from '../../../src/areas/check/records.js';
import { KINDS, kindOfDirectory } from '../../../src/areas/content/shared/lmx-files.js';
import { PLAN_KINDS } from '../../../src/areas/plan-kinds.js';
import { specs } from '../../../src/areas/registry.js';
import { walkSpecs } from '../../../src/core/declare.js';
import { LMX_KINDS } from '../../../src/lmx/kinds.js';
import { directoriesOf, directoryKind, KIND_WORDS, RECORD_KINDS } from '../../../src/platform/record-kinds.js';

const entries = Object.values(RECORD_KINDS) as { directory: string; half: string; word?: string; lmx?: string }[];

describe('the readers of the table of record kinds', () => {
  it('accept with --kind only words of the table', () => {
    const choices = walkSpecs(specs).flatMap(({ path, spec }) =>
      (spec.options ?? []).filter((option) => option.flags.startsWith('--kind ')).map((option) => ({ command: path.join(' '), choices: option.choices ?? [] })),
    );
    expect(choices.map(({ command }) => command).sort()).toEqual(['content check', 'content convert', 'content preview', 'content render']);
    for (const { choices: words } of choices) {
      expect(words.length).toBeGreaterThan(0);
      for (const word of words) expect(KIND_WORDS).toContain(word);
    }
  });

  it("name check's findings by the table's words, and besides them only the app's code and the account", () => {
    expect(FINDING_KINDS.filter((kind) => kind !== 'code' && kind !== 'account')).toEqual(
      entries.flatMap((entry) => (entry.word === undefined ? [] : [entry.word])),
    );
  });

  it('take the kinds of LMX, and the kind of email of a tree directory, from the table', () => {
    expect([...LMX_KINDS]).toEqual(entries.flatMap((entry) => (entry.lmx === undefined || entry.word === undefined ? [] : [entry.word])));
    expect([...KINDS]).toEqual([...directoriesOf('emails')]);
    expect(KINDS.map(kindOfDirectory)).toEqual(['transactional', 'campaign', 'component', undefined]);
  });

  it('play a unit of each kind the tree keeps, named by its noun, through a kind of its own, and one named by its directory not at all', () => {
    const unitOf = (kind: string) =>
      ({ record: `${kind}/x`, kind, id: 'i', calls: [{ op: 'updateCampaign', id: 'i', body: { name: 'x' } }] }) as unknown as PlannedUnit;
    for (const directory of [...directoriesOf('emails'), ...directoriesOf('workflows')]) {
      expect(PLAN_KINDS.bind(unitOf(directoryKind(directory)!.noun))).toBeDefined();
      expect(PLAN_KINDS.bind(unitOf(directory))).toBeUndefined();
    }
  });
});
