/**
 * One side of a review: every email of a content tree as its recipients get it, drawn by the same
 * renderer as `content render` (its LMX, the tree's components and theme, its fallbacks), with the
 * fields that are not the body (subject, preview text, sender) and, for a workflow's email, the
 * nodes that send it. Both sides of a review are read by this one reader, whatever they come from
 * (the working tree, a git commit, the account, a plan), so that what differs is the change alone.
 */
import { basename, dirname, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { readTreeFileAsync } from '../../../base/tree-files.js';
import { componentIdsOf, type LmxDocument, type LmxKind, parseLmx, variablesOf } from '../../../lmx/index.js';
import { QA_RULES } from '../../../lmx/qa/index.js';
import { WORKFLOW_FILE } from '../../../platform/workflows/file.js';
import type { CheckProblem } from '../shared/check.js';
import type { QaRules } from '../shared/check-qa.js';
import { type EmailView, type TreeCache, treeContext, viewEmail } from '../shared/email-view.js';
import { readLmxSourceAsync, WORKFLOWS } from '../shared/lmx-files.js';
import { emailsOf, recordDirectories, type TreeEmail } from '../shared/tree.js';

/** The kinds of email a review names, as the JSON and the API say them. */
export type ReviewKind = 'transactional' | 'campaign' | 'workflow';

/** The fields beside the body that a recipient sees. */
export const SENDER_FIELDS = ['fromName', 'fromEmail', 'replyToEmail'] as const;

/** One email of one side. */
export interface SideEmail {
  kind: ReviewKind;
  name: string;
  /** The email's directory, relative to the tree: `transactional/welcome--cx1`. */
  path: string;
  subject: string;
  previewText: string;
  /** `Acme <hello@acme.example>`, reply to …: the sender as a recipient's client shows it. */
  from: string;
  /** The keys of the workflow nodes that send it (a workflow's email), sorted. */
  nodes: string[];
  /** The components it embeds, by the names its LMX gives them. */
  components: string[];
  /** The variables it uses, its components' included: `data.firstName`. */
  variables: string[];
  view: EmailView;
  /** The problems that stop its LMX being read or compiled (errors only), empty when it compiles. */
  errors: CheckProblem[];
}

/** The LMX files of a tree that are the bodies of emails a push sends: a transactional email's draft, a campaign's and a workflow email's body. */
const BODY_FILE: Record<string, string> = { transactional: 'draft.lmx', campaigns: 'email.lmx', [WORKFLOWS]: 'email.lmx' };
const KIND_OF: Record<string, ReviewKind> = { transactional: 'transactional', campaigns: 'campaign', [WORKFLOWS]: 'workflow' };

/** Every email of a tree, by its directory: what a recipient would get of each, its qa findings as the rules file (if any) rules them. */
export async function readSide(root: string, rules?: QaRules): Promise<Map<string, SideEmail>> {
  const cache: TreeCache = new Map();
  const listed = emailsOf(root);
  const senders = await sendingNodes(root, listed);
  const emails = new Map<string, SideEmail>();
  for (const email of listed) {
    if (email.group === undefined || BODY_FILE[email.group] !== basename(email.path)) continue;
    const path = dirname(email.path);
    const kind = KIND_OF[email.group]!;
    emails.set(path, await readEmail(root, { file: email.file, kind: email.kind, rules }, path, kind, email.name, senders.get(path) ?? [], cache));
  }
  return emails;
}

async function readEmail(
  root: string,
  lmx: { file: string; kind: LmxKind | undefined; rules: QaRules | undefined },
  path: string,
  kind: ReviewKind,
  name: string,
  nodes: string[],
  cache: TreeCache,
): Promise<SideEmail> {
  const { file } = lmx;
  const read = await readLmxSourceAsync(root, join(path, basename(file)));
  const unreadable = read !== undefined && 'problem' in read ? read.problem : undefined;
  const source = read === undefined || 'problem' in read ? '' : read.source;
  const context = await treeContext(file, cache);
  const view = viewEmail({ file, source, kind: lmx.kind, ...(lmx.rules === undefined ? {} : { rules: lmx.rules }) }, context);
  // The email message's fields file, read once with the context it is drawn with.
  const fields = context.fields.texts;
  const { document } = parseLmx(source);
  // The LMX's own errors: a qa finding the rules file raises to an error is a finding, not a body that does not compile.
  const compileErrors = view.problems.filter((problem) => problem.severity === 'error' && !Object.hasOwn(QA_RULES, problem.rule));
  const errors = [...(unreadable === undefined ? [] : [unreadable]), ...compileErrors];
  return {
    kind,
    name: name.replace(/ \(draft\)$/, ''),
    path,
    subject: fields.subject ?? '',
    previewText: fields.previewText ?? '',
    from: senderOf(fields),
    nodes,
    components: componentIdsOf(document),
    variables: variablesUsed(document, context.components, [fields.subject, fields.previewText]),
    view,
    errors,
  };
}

function senderOf(fields: Record<string, string | undefined>): string {
  const [name, email, replyTo] = SENDER_FIELDS.map((field) => fields[field] ?? '');
  const from = name === '' ? email : email === '' ? name : `${name} <${email}>`;
  return replyTo === '' ? from : `${from} (reply to ${replyTo})`;
}

/** The variables an email uses: its body's, the components' it embeds, its subject's and preview text's. */
function variablesUsed(document: LmxDocument, components: ReadonlyMap<string, LmxDocument>, texts: (string | undefined)[]): string[] {
  const names = new Set(variablesOf(document).map((variable) => `${variable.namespace}.${variable.name}`));
  for (const id of componentIdsOf(document)) {
    const component = components.get(id);
    if (component !== undefined) for (const variable of variablesOf(component)) names.add(`${variable.namespace}.${variable.name}`);
  }
  for (const text of texts) for (const match of (text ?? '').matchAll(/\{(contact|event|data)\.([A-Za-z0-9_-]+)\}/g)) names.add(`${match[1]}.${match[2]}`);
  return [...names].sort();
}

/**
 * For each workflow email of the tree (by its directory), the keys of the send-email nodes that
 * send it (`emails`: the tree's, listed once for the side). A workflow file that does not parse
 * sends nothing here; `content check` says why.
 */
async function sendingNodes(root: string, emails: readonly TreeEmail[]): Promise<Map<string, string[]>> {
  const senders = new Map<string, string[]>();
  const seen = new Set<string>();
  for (const email of emails) {
    if (email.group !== WORKFLOWS) continue;
    const workflow = dirname(dirname(dirname(email.path)));
    if (seen.has(workflow)) continue;
    seen.add(workflow);
    let nodes: Record<string, { type?: unknown; email?: unknown }> = {};
    try {
      const text = (await readTreeFileAsync(root, `${workflow}/${WORKFLOW_FILE}`, 1024 * 1024))?.toString('utf8');
      nodes = (parseYaml(text ?? '') as { nodes?: typeof nodes } | null)?.nodes ?? {};
    } catch {
      continue;
    }
    for (const [key, node] of Object.entries(nodes)) {
      if (node?.type !== 'SendEmailAction' || typeof node.email !== 'string') continue;
      const path = `${workflow}/${dirname(node.email)}`;
      senders.set(path, [...(senders.get(path) ?? []), key].sort());
    }
  }
  return senders;
}

/**
 * The components whose LMX differs between two trees (added and removed too) that no email of
 * either embeds: a change that reaches no recipient, said as such rather than left unexplained.
 */
export async function unusedChangedComponents(base: string, head: string, emails: Iterable<SideEmail>): Promise<string[]> {
  const sources = async (root: string) => {
    const found = new Map<string, { ids: string[]; source: string }>();
    for (const { entry, ids } of recordDirectories(root)) {
      const read = await readLmxSourceAsync(root, `components/${entry}/component.lmx`);
      found.set(entry, { ids, source: read === undefined || 'problem' in read ? '' : read.source });
    }
    return found;
  };
  const [before, after] = await Promise.all([sources(base), sources(head)]);
  const embedded = new Set([...emails].flatMap((email) => email.components));
  return [...new Set([...before.keys(), ...after.keys()])]
    .filter((entry) => before.get(entry)?.source !== after.get(entry)?.source)
    .filter((entry) => ![...(before.get(entry)?.ids ?? []), ...(after.get(entry)?.ids ?? [])].some((id) => embedded.has(id)))
    .map((entry) => `components/${entry}`)
    .sort();
}
