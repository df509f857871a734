/**
 * What a plan does to people and to the app, in the words each kind of record answers with (a
 * workflow's queued contacts and sends, an email's Guardian findings, a transactional email's data
 * variables, a campaign's audience): what the kinds' `impact` returns, render.ts puts in words,
 * and a plan file keeps beside its units. The API's answers are kept as they came.
 */

import type { CodeUse } from '../../../app-code/uses.js';
import { NotFoundError, RejectedError } from '../../../base/errors.js';
import type { Campaign } from '../../../platform/campaigns/schemas.js';
import type { GuardianReport } from '../../../platform/email-messages/schemas.js';
import type { EmailMetrics } from '../../../platform/email-metrics.js';
import type { MailingList } from '../../../platform/lists/schemas.js';
import type { AudienceSegment } from '../../../platform/segments/schemas.js';
import type { DeleteNodeAnswer, MailingListAnswer } from '../../../platform/workflows/schemas.js';

/** Contacts a node delete or a mailing-list change removes from a workflow: the API's dry run, as it answered. */
export interface QueuedImpact {
  kind: 'queued-contacts';
  record: string;
  op: 'deleteWorkflowNode' | 'deleteWorkflowNodeRecursively' | 'changeWorkflowMailingList';
  /** The node deleted (its key in the tree), and the keys the delete removes with it. */
  node?: string;
  removes?: string[];
  mailingList?: string | null;
  answer?: DeleteNodeAnswer | MailingListAnswer;
  /** A node the plan itself creates: no one can be waiting there, and the API is not asked. */
  createdByPlan?: true;
  error?: string;
}

/** A send-email node changed (or deleted) in a workflow contacts move through: what it has sent so far. */
export interface SendsImpact {
  kind: 'sends';
  record: string;
  node: string;
  nodeId: string;
  change: 'updated' | 'email' | 'deleted';
  answer?: EmailMetrics;
  error?: string;
}

/**
 * Guardian's findings on an email message the plan writes. The API checks a saved message only
 * ("on a saved email message", its description): `saved` is its answer on what the account holds
 * now; `planned` is the same rule set (src/lmx/guardian.ts, the sandbox's Guardian) on what the
 * plan writes. An apply with the check on asks the API again after each write.
 */
export interface GuardianImpact {
  kind: 'guardian';
  record: string;
  /** The email: its message id, or a workflow email's file. */
  email: string;
  messageId?: string;
  saved?: GuardianReport;
  planned: GuardianReport;
  error?: string;
}

/** Where the app sends the transactional email, and what it would leave out once the plan is published. */
export interface CallSite {
  file: string;
  line: number;
  column: number;
  /** The variables the send gives, when its dataVariables is an object literal; undefined when the scanner cannot tell. */
  gives?: string[];
  /** The variables added without a fallback that the send leaves out: it fails unless the email marks them optional. */
  missing: string[];
  /** The variables it gives that the email would no longer use. */
  noLongerUsed: string[];
}

/** A transactional email's data variables, as published and as the plan would publish them. */
export interface DataVariablesImpact {
  kind: 'data-variables';
  record: string;
  transactionalId: string;
  /** Whether the plan publishes it; otherwise the change is its draft's, and takes effect when it is published. */
  publishes: boolean;
  /** The API's `dataVariables` of the published email. */
  published: string[];
  planned: string[];
  added: string[];
  removed: string[];
  /** Added ones with no fallback in the planned email: a send without them fails unless the email marks them optional. */
  withoutFallback: string[];
  /** With the app's source (--code): its sends of this email. */
  callSites?: CallSite[];
  error?: string;
}

/**
 * A unit whose calls need a person's yes as the account stands when the plan is made (the write
 * gate's judgement, src/core/gate.ts: a record a live email uses, a live workflow, a publish…): its
 * apply is refused without --live (exit 11), and judged again then.
 */
export interface NeedsLiveImpact {
  kind: 'needs-live';
  record: string;
  /** What it does and why, in the gate's words: "edits a component that a live email uses: …". */
  does: string;
}

/**
 * A send-email node the plan changes (or deletes) on one variant's path of an experiment, in a
 * workflow contacts move through: the experiment's counts run across the change, so what it
 * measured before and after are not comparable.
 */
export interface ExperimentImpact {
  kind: 'experiment';
  record: string;
  node: string;
  nodeId: string;
  /** The experiment node and the variants whose paths reach the node (not all of them), by their keys in the tree (else their ids). */
  experiment: string;
  variants: string[];
  change: SendsImpact['change'];
}

export type ImpactRecord = QueuedImpact | SendsImpact | GuardianImpact | DataVariablesImpact | AudienceImpact | NeedsLiveImpact | ExperimentImpact;

/** Who a campaign's schedule sends to: its mailing list, its segment and its own filter, as the update leaves them, each as the API answers for it. */
export interface AudienceImpact {
  kind: 'audience';
  record: string;
  campaignId: string;
  /** The schedule the update sets. */
  scheduling: unknown;
  /** The campaign as the API answers for it now. */
  campaign: Campaign;
  /** The list it goes to: the API's record of it; null for none (every subscribed contact). */
  mailingList: MailingList | { id: string } | null;
  segment: AudienceSegment | { id: string } | null;
  audienceFilter: unknown;
}

/** What every kind's impact is asked with: the app's uses of Loops, when the plan is made with its source (--code). */
export interface ImpactContext {
  uses?: readonly CodeUse[];
}

/** An answer the API refused to give (a node it would not delete, an email it does not have): said in the record, not fatal to the plan. */
export async function asked<T>(question: () => Promise<T>): Promise<{ answer: T } | { error: string }> {
  try {
    return { answer: await question() };
  } catch (error) {
    if (error instanceof RejectedError || error instanceof NotFoundError) return { error: error.message };
    throw error;
  }
}
