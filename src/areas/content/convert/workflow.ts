/**
 * `content convert --kind workflow`: a workflow email is a node of a workflow's graph, so the
 * emails converted into a workflow directory need its `workflow.yaml`. A directory without one
 * gets a draft whose blank trigger leads to the emails, one after another a day apart: it pushes
 * as a new draft, which starts nobody until someone sets its trigger. A workflow file already
 * there (a pulled workflow) is never rewritten: where the emails go in its graph is the team's
 * choice, and the list says which node to add.
 */
import { readTreeFile, treeEntryKind } from '../../../base/tree-files.js';
import type { Converted, Remediation } from '../../../convert/model.js';
import { emailPathOf, type FileNode, type WorkflowFile } from '../../../platform/workflows/file.js';
import { workflowYaml } from '../shared/workflow-files.js';

/** The directory under `workflows/` the emails go in: one the tree has, as named (`welcome--cw1…`), else the name made a slug. */
export function workflowDirectory(root: string, named: string | undefined, slug: (name: string) => string, fallback: string): string {
  if (named !== undefined && !named.includes('/') && !named.startsWith('.') && treeEntryKind(root, `workflows/${named}`) === 'directory') return named;
  return slug(named ?? fallback);
}

/** A draft whose blank trigger leads to the emails in order, a day apart, and ends. */
function draftOf(name: string, emails: readonly string[]): WorkflowFile {
  const nodes: Record<string, FileNode> = {};
  const keys = emails.flatMap((email, index) => (index === 0 ? [email] : [`wait-1d-${index}`, email]));
  nodes.trigger = { type: 'BlankTrigger', next: [keys[0]!] };
  keys.forEach((key, index) => {
    const next = [keys[index + 1] ?? 'exit'];
    nodes[key] = key.startsWith('wait-1d-') ? { type: 'TimerAction', next, amount: 1, unit: 'd' } : { type: 'SendEmailAction', next, email: emailPathOf(key) };
  });
  nodes.exit = { type: 'ExitAction', next: [] };
  return { name, root: 'trigger', nodes };
}

/**
 * For each workflow directory the email records went into: a `workflow.yaml` record when it has
 * none, or, when it has one that does not name an email, that email's entry on the list.
 */
export function workflowFiles(
  root: string,
  emails: readonly Converted[],
  nameOf: (directory: string) => string,
): { converted: Converted; files: Map<string, string> }[] {
  const byDirectory = new Map<string, Converted[]>();
  for (const email of emails) {
    const directory = email.path.slice(0, email.path.indexOf('/emails/'));
    byDirectory.set(directory, [...(byDirectory.get(directory) ?? []), email]);
  }
  const made: { converted: Converted; files: Map<string, string> }[] = [];
  for (const [directory, records] of byDirectory) {
    const slugs = records.map((record) => record.path.slice(record.path.lastIndexOf('/') + 1));
    const file = `${directory}/workflow.yaml`;
    if (treeEntryKind(root, file) === 'file') {
      const text = readTreeFile(root, file, 1024 * 1024)?.toString('utf8') ?? '';
      records.forEach((record, index) => {
        if (text.includes(emailPathOf(slugs[index]!))) return;
        record.remediation.push(listed(record, file, slugs[index]!));
      });
      continue;
    }
    const draft = draftOf(nameOf(directory), slugs);
    const remediation: Remediation = {
      file: `${root}/${file}`,
      line: 1,
      column: 1,
      construct: 'the workflow the email is sent by',
      outcome: 'approximated',
      done: `made ${file}: a draft whose blank trigger leads to ${slugs.length === 1 ? 'the email' : `the ${slugs.length} emails, a day apart`}`,
      todo: 'set its trigger (an event, a list, a contact property) and its waits in workflow.yaml, or in the app after the push: a draft starts nobody',
    };
    const converted: Converted = {
      source: records.map((record) => record.source).join(', '),
      kind: 'workflow-file',
      path: directory,
      files: ['workflow.yaml'],
      variables: [],
      remediation: [remediation],
    };
    made.push({ converted, files: new Map([['workflow.yaml', workflowYaml(draft)]]) });
  }
  return made;
}

function listed(record: Converted, file: string, slug: string): Remediation {
  return {
    file: record.source,
    line: 1,
    column: 1,
    construct: 'the workflow the email is sent by',
    outcome: 'listed',
    done: `${file} is there, and was left as it was: no node sends the email yet`,
    todo: `add a node to its graph, \`${slug}: { type: SendEmailAction, next: [], email: ${emailPathOf(slug)} }\`, and name it in the next of the node it follows`,
  };
}
