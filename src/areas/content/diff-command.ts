/** `content diff`: per record, what differs between the files and the account. */

import { ExitCode } from '../../base/exit-codes.js';
import { type Handler, handler } from '../../core/capabilities.js';
import { explained } from '../../core/explain.js';
import { countOf } from '../../render/numbers.js';
import { wrapLines } from '../../render/wrap.js';
import { diffAudience } from './audience/diff.js';
import { renderDiffMarkdown } from './diff-markdown.js';
import { accountSide, diffEmails } from './emails/diff.js';
import { chooseEnvironment, environmentAccount } from './shared/environment-choice.js';
import { DEFAULT_DIRECTORY } from './shared/files.js';
import { patchOnTerminal } from './shared/render.js';
import { CONTENT, requireState, scopeOf } from './shared/scope.js';
import type { Standing } from './shared/standing.js';
import { diffWorkflows } from './workflows/diff.js';

interface DiffOptions {
  env?: string;
  only?: string;
  format?: 'text' | 'markdown';
}

/** `content diff`: per record, what differs between the files and the account; exit 1 when anything does. */
export const diff: Handler<[string | undefined], DiffOptions> = handler(
  ['out', 'client', 'key', 'files'],
  async (context, [directory], options) => {
    const scope = scopeOf(directory, options.only, true);
    const state = requireState(scope.root, directory ?? DEFAULT_DIRECTORY);
    // The environment compared with: its profile is the account, and its values fill the files, as a push would send them.
    const environment = (await chooseEnvironment(context, scope.root, options.env))?.environment;
    const values = environment?.values;
    const { client, account, kinds, remotes } = await accountSide(context, scope, state, environment?.name);
    const { differences: emails, names } = diffEmails(scope, kinds, state, account, remotes, values);
    // Workflows are compared once a pull has brought them here, as the other kinds are.
    const workflows = [
      ...(scope.workflows && state.kinds.includes('workflows') ? await explained(diffWorkflows(client, scope, state, account, names, values), CONTENT) : []),
      // The audience half once a pull brought it here.
      ...(scope.audience && state.audience !== undefined ? await explained(diffAudience(client, scope.root, state, account), CONTENT) : []),
    ];
    const count = emails.length + workflows.length;
    const { out } = context;
    if (out.json) {
      await out.writeJson({
        account,
        records: [...emails, ...workflows.map(({ text, ...workflow }) => ({ ...workflow, patch: text }))],
      });
    } else if (options.format === 'markdown') {
      await out.write(
        renderDiffMarkdown(scope.root, account, [
          ...emails.map(({ kind, name, path, standing, patch }) => ({ kind, name, path, action: actionOf(standing), patch })),
          ...workflows.map(({ kind, name, path, standing, text }) => ({ kind, name, path, action: STANDING_WORDS[standing], patch: text })),
        ]),
      );
    } else {
      // A heading wrapped to the terminal, its words under the path; a pipe or a file gets it whole, for grep.
      const heading = (path: string, words: string) => (out.tty ? wrapLines(`# ${path}: ${words}`, out.columns - 4).join('\n#   ') : `# ${path}: ${words}`);
      const text = [
        ...emails.map(({ path, standing, patch }) => `${heading(path, actionOf(standing))}\n${patchOnTerminal(out, patch)}`),
        ...workflows.map((workflow) => `${heading(workflow.path, STANDING_WORDS[workflow.standing])}\n${patchOnTerminal(out, workflow.text)}`),
      ].join('\n');
      if (text !== '') await out.write(text);
      out.note(
        count === 0
          ? `${scope.root} and ${account} hold the same content.`
          : `${countOf(count, 'record')} ${count === 1 ? 'differs' : 'differ'} between ${scope.root} and ${account}.`,
      );
    }
    return count === 0 ? ExitCode.ok : ExitCode.mismatch;
  },
  { chooseAccount: environmentAccount(([directory]) => scopeOf(directory, undefined).root) },
);

const STANDING_WORDS: Record<Standing, string> = {
  same: 'the same',
  local: 'changed here',
  remote: 'changed in the account since the last pull',
  conflict: 'changed here and in the account',
  missing: 'not in the account',
  'only-remote': 'only in the account',
  ambiguous: 'several records in the account have this name',
};

const actionOf = (standing: Standing) => (standing === 'same' ? 'published version differs' : STANDING_WORDS[standing]);
