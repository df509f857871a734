/** What `loopsctl approve` does: shows a proposed change, asks the person on the terminal, and records their yes. */
import { UsageError } from '../../base/errors.js';
import { sanitize } from '../../base/sanitize.js';
import { type Handler, handler } from '../../core/capabilities.js';
import { terminalUser } from '../../core/change-journal-watch.js';
import { confirm } from '../../core/prompt.js';
import { approvalQuestion, readProposal, recordApproval } from '../change/approvals.js';

export const approve: Handler<[string]> = handler(['out', 'config', 'prompts', 'clock', 'env'], async (context, [id]) => {
  const { runtime } = context;
  // No --yes, and no dry run that skips the question: only a person at a terminal approves.
  if (runtime.stdin.isTTY !== true) {
    throw new UsageError(`${id} was not approved: a person must run \`loopsctl approve ${id}\` on a terminal, where it asks them`, {
      hint: "an approval is a person's answer to the question, and there is no --yes to give it otherwise",
    });
  }
  const proposal = readProposal(context.configDir, id, runtime.now());
  const shown = [
    ...approvalQuestion(proposal.by, proposal.account, proposal.words),
    sanitize(`Proposed at ${proposal.createdAt}; the approval is for this change only, and expires at ${proposal.expiresAt}.`),
  ];
  runtime.stderr.write(`${shown.join('\n')}\n`);
  await confirm(runtime, `Approve ${id}?`, false);
  // Asked again after the answer: a proposal that expired while the person read it is not approved.
  const approval = recordApproval(context.configDir, readProposal(context.configDir, id, runtime.now()), terminalUser(runtime.env), runtime.now());
  await context.out.present(
    { approved: approval.id, digest: approval.digest, expiresAt: approval.expiresAt },
    () => `Approved ${approval.id}, until ${approval.expiresAt}: the agent may now apply it (approved_apply), once.\n`,
  );
});
