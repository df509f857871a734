/**
 * `loopsctl check`: the account read (GET requests only, in every tier), its problems found by
 * each rule family, and the report. Exit 1 when errors are found (warnings too with --strict), 2
 * when something could not be read: a report that did not see the whole account is never clean.
 */
import { UsageError } from '../../base/errors.js';
import { ExitCode } from '../../base/exit-codes.js';
import { type Handler, handler, type Uses } from '../../core/capabilities.js';
import { formatCount } from '../../render/numbers.js';
import type { Output } from '../../render/output.js';
import { ProgressLine } from '../../render/progress.js';
import { type Account, gather } from './gather.js';
import { countersOf, readSnapshot, since, writeSnapshot } from './metrics.js';
import { FAMILIES, type Family, type Problem } from './records.js';
import { type Report, renderGithub, renderReport, renderSlack, summary } from './render.js';
import { ALL_RULES, findProblems } from './rules/index.js';
import { NO_RULES, type RulesFile, readRulesFile } from './rules-file.js';
import { findRulesFile } from './rules-lookup.js';

export interface CheckOptions {
  rules?: string;
  only?: string;
  strict?: boolean;
  drafts?: boolean;
  format?: 'text' | 'github' | 'slack';
  notify?: string;
  code?: string[];
  maxBounceRate?: number;
  maxComplaintRate?: number;
  maxUnsubscribeRate?: number;
  minOpenRate?: number;
  snapshot?: string;
  links?: boolean;
  allowPrivateLinks?: boolean;
  spamassassin?: { host: string; port: number };
}

/** The families --only names; an unknown one is a usage error before anything is read. */
export function parseFamilies(only: string | undefined): Set<Family> | undefined {
  if (only === undefined) return undefined;
  const names = only
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = names.filter((name) => !(FAMILIES as readonly string[]).includes(name));
  if (unknown.length > 0 || names.length === 0) {
    throw new UsageError(`--only: ${unknown.length > 0 ? `no family is named ${unknown.join(', ')}` : 'name at least one family'}`, {
      hint: `the families are ${FAMILIES.join(', ')}`,
    });
  }
  return new Set(names as Family[]);
}

/** What could not be read, as problems of their own: they name the record, and fail the run. */
function notChecked(account: Account): Problem[] {
  return account.unchecked.map(({ what, reason, record }) => ({
    rule: 'not-checked',
    severity: 'error',
    message: `${what} could not be read: ${reason}`,
    fix: 'run the check again; if it fails the same way, look at the record in the app',
    kind: record?.kind ?? 'account',
    name: record?.name ?? what,
    id: record?.id ?? '',
    ...(record?.url === undefined ? {} : { url: record.url }),
  }));
}

function recordsRead(account: Account): number {
  const { transactional, campaigns, workflows, components, themes, eventPatterns, mailingLists, segments } = account;
  return [transactional, campaigns, workflows, components, themes, eventPatterns, mailingLists, segments].reduce((sum, list) => sum + list.length, 0);
}

const RENDERERS: Record<NonNullable<CheckOptions['format']>, (out: Output, report: Report) => string> = {
  text: renderReport,
  github: (_out, report) => renderGithub(report),
  slack: (_out, report) => renderSlack(report),
};

/** Posts what changed since the snapshot's problems (all of them without one); nothing when nothing did. */
async function notify(context: Uses<'outside'>, url: string, before: Problem[] | undefined, report: Report): Promise<void> {
  const { changesMessage, changesSince, postToWebhook } = await import('./notify.js');
  const message = changesMessage(changesSince(before, report.problems), summary(report));
  if (message !== undefined) await postToWebhook(context, url, message);
}

/** The links and images of the emails read, fetched and judged (the qa family's network rules). */
async function fetchLinks(context: Uses<'outside'>, account: Account, options: CheckOptions, progress: ProgressLine): Promise<Problem[]> {
  const [{ checkLinks }, { renderedEmails }] = await Promise.all([import('./links/check.js'), import('./emails.js')]);
  const { userAgent, timeoutMs, proxy, signal, debug } = context.outsideSettings();
  return checkLinks(renderedEmails(account), {
    userAgent,
    timeoutMs,
    ...(proxy === undefined ? {} : { proxy }),
    ...(signal === undefined ? {} : { signal }),
    ...(debug === undefined ? {} : { debug }),
    allowPrivate: options.allowPrivateLinks === true,
    onProgress: (done, total) => progress.show(`checking links and images: ${formatCount(done)} of ${formatCount(total)}`),
  });
}

/** Each email scored by the team's spamd, which --spamassassin names. */
async function spamdVerdicts(context: Uses<'outside'>, account: Account, spamd: { host: string; port: number }): Promise<Problem[]> {
  const [{ scoreWithSpamd }, { renderedEmails }] = await Promise.all([import('./spamc.js'), import('./emails.js')]);
  const { timeoutMs, signal } = context.outsideSettings();
  return scoreWithSpamd(renderedEmails(account), spamd, timeoutMs, signal, account.unchecked);
}

export const check: Handler<[], CheckOptions> = handler(['out', 'client', 'outside', 'files'], async (context, _args, options) => {
  const only = parseFamilies(options.only);
  // A tool call of `loopsctl mcp` finds the rules file under its root, or finds none without one.
  const files = context.runtime.files;
  const rulesFile = findRulesFile(options.rules, files === undefined ? '.' : files.root);
  const fromFile = rulesFile === undefined ? NO_RULES : await readRulesFile(rulesFile, new Set(ALL_RULES.map((rule) => rule.name)));
  // A flag wins over the file's threshold of the same rate.
  const flags = {
    bounceRate: options.maxBounceRate,
    complaintRate: options.maxComplaintRate,
    unsubscribeRate: options.maxUnsubscribeRate,
    openRate: options.minOpenRate,
  };
  const given = Object.fromEntries(Object.entries(flags).filter(([, rate]) => rate !== undefined));
  const expected: RulesFile = { ...fromFile, thresholds: { ...fromFile.thresholds, ...given } };
  const wantsMetrics = Object.values(expected.thresholds).some((rate) => rate !== undefined) && (only === undefined || only.has('metrics'));
  const snapshot = options.snapshot === undefined ? undefined : readSnapshot(options.snapshot);
  // The source is read before the account: a directory that cannot be read stops the run at once.
  const code = options.code === undefined ? undefined : (await import('../../app-code/scan.js')).scanCode(options.code);
  const progress = new ProgressLine(() => context.runtime.stderr, context.runtime.paged);
  // The network rules run only when asked: a CI job stays offline unless it says --links. The links
  // are fetched as soon as the emails are read, while Guardian's reports are read.
  const qa = only === undefined || only.has('qa');
  const links = (options.links === true && qa) || only?.has('qa') === true;
  let linksShown = false;
  let network: Problem[] | undefined;
  const account = await gather(await context.client(), {
    drafts: options.drafts === true,
    metrics: wantsMetrics,
    guardian: only === undefined || only.has('content'),
    // Once the links are being checked, their count is the line shown.
    onProgress: (done, total) => linksShown || progress.show(`checking: ${done} of ${total} requests`),
    ...(links
      ? {
          alongside: async (read: Account) => {
            linksShown = true;
            network = await fetchLinks(context, read, options, progress);
          },
        }
      : {}),
  }).finally(() => progress.clear());
  if (network !== undefined) account.network = network;
  if (code !== undefined) account.code = code;
  if (options.spamassassin !== undefined && qa)
    account.network = [...(account.network ?? []), ...(await spamdVerdicts(context, account, options.spamassassin))];
  const totals = account.metrics;
  if (snapshot !== undefined && totals !== undefined) {
    account.metrics = totals.map((email) => ({ ...email, counters: since(email.counters, snapshot.counters[email.key]) }));
    account.sinceSnapshot = Object.keys(snapshot.counters).length > 0;
  }
  const unchecked = notChecked(account);
  const report: Report = {
    problems: [...unchecked, ...findProblems(account, expected, only)],
    emailsChecked: account.messages.length,
    recordsRead: recordsRead(account),
    incomplete: unchecked.length > 0,
  };
  const { out } = context;
  if (out.json) await out.writeJson(report.problems);
  else await out.write(RENDERERS[options.format ?? 'text'](out, report));
  if (report.incomplete) return ExitCode.usage;
  if (options.notify !== undefined) await notify(context, options.notify, snapshot?.problems, report);
  // Kept only after a whole read (and a post that went through): the next run then judges
  // exactly the sends made since this one, and posts what changed since this one.
  if (options.snapshot !== undefined) {
    writeSnapshot(options.snapshot, { counters: totals === undefined ? (snapshot?.counters ?? {}) : countersOf(totals), problems: report.problems });
  }
  const failing = report.problems.filter((problem) => problem.severity === 'error' || (options.strict === true && problem.severity === 'warning'));
  return failing.length > 0 ? ExitCode.mismatch : undefined;
});
