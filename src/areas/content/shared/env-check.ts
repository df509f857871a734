/**
 * What `content check` and every push hold a tree's email files to when it has environments: each
 * `{env.NAME}` defined, in every environment checked; no `{env.` that opens no placeholder, which
 * would be sent as written; and, for one environment, none of another's values written out (its
 * host, address or id in this one's email: the leak teams make by hand). Each problem is at its
 * file, line and column as written.
 */
import { join } from 'node:path';
import { positionAt } from '../../../base/parse-faults.js';
import { WORKFLOW_FILE } from '../../../platform/workflows/file.js';
import type { CheckProblem, FileCheck } from './check.js';
import { fillsIn, OPENING, placeholdersIn, SHORTEST_VALUE, standsAlone, strayOpeningsIn } from './env-values.js';
import { ENVIRONMENTS_FILE, type Environment, type Environments } from './environments.js';
import { type EmailDirectory, REFERENCE_FILES } from './files.js';
import { readRecords } from './record-files.js';
import { readWorkflows } from './workflow-files.js';

/** An email file as written: where it is shown, and its text. */
export interface WrittenFile {
  file: string;
  text: string;
  /** Whether loopsctl fills placeholders in it (an email's LMX and fields); in any other file sent, one is sent as written. */
  filled: boolean;
}

/** A host written in text: labels joined by dots, not part of a longer name. */
const HOST = /(?<![A-Za-z0-9.-])[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+(?![A-Za-z0-9-])/g;

function problemAt(text: string, offset: number, rule: string, message: string, fix: string): CheckProblem {
  return { severity: 'error', rule, message, fix, offset, ...positionAt(text, offset) };
}

/** The host of a value that is an address (`https://staging.example.com/x` -> `staging.example.com`). */
function hostOf(value: string): string | undefined {
  if (!/^https?:\/\//i.test(value)) return undefined;
  try {
    return new URL(value).hostname.toLowerCase() || undefined;
  } catch {
    return undefined;
  }
}

/** Whether a host is one a pattern names: the host itself, or (`*.x`) x and every host under it. */
function hostMatches(host: string, pattern: string): boolean {
  const base = pattern.toLowerCase().replace(/^\*\./, '');
  return host === base || (pattern.startsWith('*.') && host.endsWith(`.${base}`));
}

/** Whether a host is an environment's own: a host of its values, or one its `hosts` name. */
function ownsHost(environment: Environment, host: string): boolean {
  return Object.values(environment.values).some((value) => hostOf(value) === host) || environment.hosts.some((pattern) => hostMatches(host, pattern));
}

/** The spans of text where any of the values is written: inside them, a shorter value of another environment is this one's. */
function spansOf(text: string, values: readonly string[]): [number, number][] {
  const spans: [number, number][] = [];
  for (const value of values) {
    if (value === '') continue;
    for (let at = text.indexOf(value); at >= 0; at = text.indexOf(value, at + 1)) spans.push([at, at + value.length]);
  }
  return spans;
}

const within = (spans: readonly [number, number][], from: number, to: number) => spans.some(([start, end]) => start <= from && to <= end);

/** The other environments' values and hosts written out in an email for `target`. */
function leaksIn(text: string, target: Environment, environments: Environments): CheckProblem[] {
  const problems: CheckProblem[] = [];
  const own = spansOf(text, Object.values(target.values));
  const found: [number, number][] = [];
  for (const other of environments.values()) {
    if (other.name === target.name) continue;
    // Longest first: a value that holds another is named, not the shorter one inside it.
    const values = Object.entries(other.values)
      .filter(([, value]) => value.length >= SHORTEST_VALUE && !Object.values(target.values).includes(value))
      .sort(([, a], [, b]) => b.length - a.length);
    for (const [name, value] of values)
      for (let at = text.indexOf(value); at >= 0; at = text.indexOf(value, at + 1)) {
        const end = at + value.length;
        if (!standsAlone(text, at, end) || within(own, at, end) || within(found, at, end)) continue;
        found.push([at, end]);
        problems.push(
          problemAt(
            text,
            at,
            'env-leak',
            `${other.name}'s value of {env.${name}} written out in an email for ${target.name}`,
            `write {env.${name}}, which each environment fills with its own value`,
          ),
        );
      }
  }
  for (const match of text.matchAll(HOST)) {
    const at = match.index;
    const end = at + match[0].length;
    if (within(found, at, end) || within(own, at, end)) continue;
    const host = match[0].toLowerCase();
    if (ownsHost(target, host)) continue;
    const other = [...environments.values()].find((candidate) => candidate.name !== target.name && ownsHost(candidate, host));
    if (other === undefined) continue;
    found.push([at, end]);
    problems.push(
      problemAt(
        text,
        at,
        'env-leak',
        `${host} is ${other.name}'s host, written out in an email for ${target.name}`,
        `write the address as a {env.NAME} value of ${ENVIRONMENTS_FILE}`,
      ),
    );
  }
  return problems;
}

/**
 * The problems of one file's placeholders against the environments checked (`target` alone, or
 * every one), and with a target, the other environments' values written out in it.
 */
export function envProblemsOf(text: string, environments: Environments, target?: Environment): CheckProblem[] {
  const problems: CheckProblem[] = [];
  const checked = target === undefined ? [...environments.values()] : [target];
  const known = [...environments.keys()].join(', ');
  for (const { name, offset, written } of placeholdersIn(text)) {
    const lacking = checked.filter((environment) => !Object.hasOwn(environment.values, name)).map((environment) => environment.name);
    if (lacking.length === 0) continue;
    const defined = [...environments.values()].some((environment) => Object.hasOwn(environment.values, name));
    problems.push(
      defined
        ? problemAt(
            text,
            offset,
            'env-missing',
            `${written} has no value in ${lacking.join(', ')}`,
            `give it one under "values" of ${lacking.join(', ')} in ${ENVIRONMENTS_FILE}`,
          )
        : problemAt(
            text,
            offset,
            'env-unknown',
            `${written}: no environment defines ${name} (${known})`,
            `add ${name} to each environment's "values" in ${ENVIRONMENTS_FILE}, or correct the name`,
          ),
    );
  }
  for (const offset of strayOpeningsIn(text))
    problems.push(
      problemAt(
        text,
        offset,
        'env-syntax',
        '{env. opens no placeholder: it would be sent as written',
        'write {env.NAME}, the name in letters, digits, _ and -, closed by }',
      ),
    );
  if (target !== undefined) problems.push(...leaksIn(text, target, environments));
  return problems.sort((a, b) => a.offset - b.offset);
}

/** A file sent as written (a workflow's graph): any `{env.` in it would reach the platform, and another environment's values are a leak there too. */
function unfilledProblems(text: string, environments: Environments, target: Environment | undefined): CheckProblem[] {
  const problems: CheckProblem[] = [];
  for (let at = text.indexOf(OPENING); at >= 0; at = text.indexOf(OPENING, at + 1))
    problems.push(
      problemAt(
        text,
        at,
        'env-unfilled',
        '{env. is not filled in this file: it would be sent as written',
        "placeholders are filled in an email's LMX and fields files; write the value itself here",
      ),
    );
  if (target !== undefined) problems.push(...leaksIn(text, target, environments));
  return problems.sort((a, b) => a.offset - b.offset);
}

/** The files' checks: one per file that has a problem. */
export function checkEnvFiles(files: readonly WrittenFile[], environments: Environments, target?: Environment): FileCheck[] {
  return files.flatMap(({ file, text, filled }) => {
    const errors = filled ? envProblemsOf(text, environments, target) : unfilledProblems(text, environments, target);
    return errors.length === 0 ? [] : [{ file, source: text, errors, warnings: [] }];
  });
}

/**
 * The files of a tree a push sends, as written, of the kinds and records a run covers: each
 * record's files but what is live (published.*, never sent), and each workflow's emails and graph.
 */
export function writtenEmailFiles(
  root: string,
  shown: string,
  kinds: readonly EmailDirectory[],
  workflows: boolean,
  covers: (path: string) => boolean,
): WrittenFile[] {
  const records = readRecords(root, kinds)
    .filter((record) => covers(record.path))
    .flatMap((record) =>
      [...record.files]
        .filter(([name]) => !REFERENCE_FILES.has(name))
        .map(([name, text]) => ({ file: join(shown, record.path, name), text, filled: fillsIn(name) })),
    );
  const emails = workflows
    ? readWorkflows(root)
        .filter((workflow) => covers(workflow.path))
        .flatMap((workflow) =>
          [...workflow.files]
            .filter(([name]) => name.startsWith('emails/') || name === WORKFLOW_FILE)
            .map(([name, text]) => ({ file: join(shown, workflow.path, name), text, filled: name.startsWith('emails/') && fillsIn(name) })),
        )
    : [];
  return [...records, ...emails];
}
