/**
 * The sandbox and `content check` agree on every case of the LMX corpus: a case with errors is 422
 * naming each of them, the variables its kind cannot use included (413 when too large); the
 * warnings of a saved email message are the check's warnings.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedId } from '../../../src/emulator/module.js';
import type { LmxKind } from '../../../src/lmx/index.js';
import { QA_RULE_NAMES } from '../../../src/lmx/qa/index.js';
import { type CorpusCase, corpusCases, KNOWN_COMPONENT } from '../../support/lmx-corpus.js';
import { run, tempDir } from '../../support/main.js';
import { freshSandbox, seedState } from '../../support/sandbox.js';

const QA_RULES: ReadonlySet<string> = new Set(QA_RULE_NAMES);

interface Problem {
  line: number;
  column: number;
  rule: string;
  message: string;
}
interface FileRecord {
  file: string;
  kind: string | null;
  errors: Problem[];
  warnings: Problem[];
}

/** The directory a pull puts each kind in; workflow emails are not pulled, so they are checked with --kind. */
const KIND_DIRECTORIES: Partial<Record<LmxKind, [directory: string, file: string]>> = {
  transactional: ['transactional', 'draft.lmx'],
  campaign: ['campaigns', 'email.lmx'],
  component: ['components', 'component.lmx'],
};

/** An email message of each kind that the seed lets a key edit. */
const MESSAGES: Record<Exclude<LmxKind, 'component'>, string> = {
  transactional: seedId('transactional/Password reset/draft'),
  campaign: seedId('email-message/spring-sale'),
  workflow: seedId('email-message/trial-ending'),
};

const cases = corpusCases();
const checked = new Map<string, FileRecord>();
const outcomes = { refused: 0, saved: 0, namespaces: 0 };

/** Every case checked by `content check --json`: a tree of the seed's components with each case where a pull would put it. */
beforeAll(async () => {
  const root = join(tempDir('loopsctl-corpus-'), 'loops');
  const loose = join(root, '..', 'workflow');
  mkdirSync(loose);
  const components = seedState().components as { id: string; name: string; lmx: string }[];
  expect(components.map((component) => component.id)).toContain(KNOWN_COMPONENT);
  for (const component of components) {
    const directory = join(root, 'components', `${component.name.toLowerCase()}--${component.id}`);
    mkdirSync(directory, { recursive: true });
    writeFileSync(join(directory, 'component.lmx'), component.lmx);
  }
  const files = new Map<string, string>();
  cases.forEach((entry, index) => {
    const place = KIND_DIRECTORIES[kindOf(entry)];
    const file = place === undefined ? join(loose, `case-${index}.lmx`) : join(root, place[0], `case-${index}--c${index}`, place[1]);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, entry.lmx);
    files.set(file, entry.name);
  });
  for (const args of [[root], [loose, '--kind', 'workflow']]) {
    const result = await run(['content', 'check', ...args, '--json']);
    expect(result.code, result.stderr).toBeLessThanOrEqual(1);
    for (const record of result.json<FileRecord[]>()) if (files.has(record.file)) checked.set(files.get(record.file)!, record);
  }
  expect(checked.size).toBe(cases.length);
});

function kindOf(entry: CorpusCase): LmxKind {
  return entry.kind ?? 'campaign';
}

describe('the LMX corpus: the sandbox and content check agree', () => {
  it.each(cases.map((entry) => [entry.name, entry] as const))('%s', (_name, entry) => {
    const record = checked.get(entry.name)!;
    const kind = kindOf(entry);
    expect(record.kind).toBe(kind);
    const { call } = freshSandbox();
    const answer =
      kind === 'component'
        ? call('POST', '/v1/components', { body: { name: 'Corpus case', lmx: entry.lmx } })
        : call('POST', `/v1/email-messages/${MESSAGES[kind]}`, { body: { lmx: entry.lmx } });
    // One verdict: every error the check finds refuses the body, the namespaces its kind cannot use included.
    const first = record.errors[0];
    if (first?.rule === 'too-large') {
      expect(answer.status).toBe(413);
      return;
    }
    if (first !== undefined) {
      outcomes.refused += 1;
      if (record.errors.every((problem) => problem.rule === 'variable-namespace')) outcomes.namespaces += 1;
      expect(answer.status).toBe(422);
      // The refusal names every error the check found, in the check's order.
      expect(answer.body.message).toContain(`line ${first.line}, column ${first.column}: ${first.message} (${first.rule};`);
      expect(answer.body.message.match(/line \d+, column \d+: /g)).toHaveLength(record.errors.length);
      return;
    }
    expect([answer.status, answer.body]).toEqual([kind === 'component' ? 201 : 200, expect.anything()]);
    if (kind === 'component') return;
    outcomes.saved += 1;
    // The warnings of the answer are the check's problems, rule for rule, place for place and
    // severity for severity: its warnings, and the variables the kind cannot fill.
    const warnings = (answer.body.warnings ?? []) as { rule: string; path: string; severity: string }[];
    // The qa family's findings are loopsctl's own, beside the platform's: the platform says nothing of them.
    const problems = [
      ...record.errors.map((problem) => ({ ...problem, severity: 'error' })),
      ...record.warnings.filter((problem) => !QA_RULES.has(problem.rule)).map((problem) => ({ ...problem, severity: 'warning' })),
    ];
    expect(warnings.map((warning) => `${warning.severity} ${warning.rule} ${warning.path}`).sort()).toEqual(
      problems.map((problem) => `${problem.severity} ${problem.rule} line ${problem.line}, column ${problem.column}`).sort(),
    );
    // Guardian finds no variable the kind cannot use in a body the sandbox saved: those were refused.
    const guardian = call('GET', `/v1/email-messages/${MESSAGES[kind]}/guardian`).body as { errors: { rule: string }[] };
    expect(guardian.errors.filter((error) => error.rule.startsWith('unsupported'))).toEqual([]);
  });

  it('went through each outcome: refused, refused for its namespaces alone, saved with warnings', () => {
    expect(outcomes.refused).toBeGreaterThan(50);
    expect(outcomes.namespaces).toBe(4);
    expect(outcomes.saved).toBeGreaterThan(30);
  });
});
