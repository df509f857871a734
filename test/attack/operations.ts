/**
 * The operations the attack suite walks: every write of the API's published description (the
 * committed contract, test/contract), each declared with what makes it reach people, so that an
 * operation the contract gains fails the suite until it is declared here.
 *
 * - `always`: it reaches people or cannot be taken back, whatever its target: it needs a yes on
 *   every road (a send, a publish, a delete, a contact written).
 * - `live`: it reaches people when its target is live (src/platform/liveness.ts): a workflow's
 *   edit, an email message's, a campaign's audience, a component's or a theme's content (live when a
 *   live email uses it). Walked against a live and a draft target.
 * - `nothing`: it reaches no one, with the reason why.
 */
import { publishedDescriptionAsWritten } from '../support/openapi.js';

export type Reach = { reach: 'always' } | { reach: 'live'; targets: readonly TargetKind[] } | { reach: 'nothing'; why: string };

/** The records an attack aims at, each made live or left a draft by the state a test sets (arena.ts). */
export type TargetKind = 'workflow' | 'workflow email' | 'campaign' | 'campaign email' | 'transactional email' | 'component' | 'theme' | 'default theme';

const WORKFLOW: Reach = { reach: 'live', targets: ['workflow'] };
const CONFIGURES = (what: string): Reach => ({ reach: 'nothing', why: what });

export const OPERATIONS: Record<string, Reach> = {
  createContact: { reach: 'always' },
  updateContact: { reach: 'always' },
  deleteContact: { reach: 'always' },
  removeContactSuppression: { reach: 'always' },
  sendEvent: { reach: 'always' },
  sendTransactionalEmail: { reach: 'always' },
  previewEmailMessage: { reach: 'always' },
  publishTransactionalEmail: { reach: 'always' },
  deleteWorkflow: { reach: 'always' },
  createWorkflowNode: WORKFLOW,
  addWorkflowBranch: WORKFLOW,
  updateWorkflowNode: WORKFLOW,
  rerouteNodeConnection: WORKFLOW,
  deleteWorkflowNode: WORKFLOW,
  deleteWorkflowNodeRecursively: WORKFLOW,
  changeWorkflowMailingList: WORKFLOW,
  updateEmailMessage: { reach: 'live', targets: ['workflow email', 'campaign email', 'transactional email'] },
  // Its audience; its `scheduling` always needs a yes, its name and group never.
  updateCampaign: { reach: 'live', targets: ['campaign'] },
  // "always `Draft` for new campaigns"; with `scheduling`, as a schedule does.
  createCampaign: CONFIGURES('a new campaign is a draft, which sends nothing (its schedule is judged as a schedule)'),
  createAudienceSegment: CONFIGURES('a segment is a filter, which sends nothing until a campaign or workflow uses it'),
  createCampaignGroup: CONFIGURES('a group files campaigns'),
  updateCampaignGroup: CONFIGURES('a group files campaigns'),
  createContactProperty: CONFIGURES('a property adds a field to contacts, empty'),
  createComponent: CONFIGURES('a new component is in no email yet'),
  // Its body reaches every email that embeds it: live when a live email does (its name reaches no one).
  updateComponent: { reach: 'live', targets: ['component'] },
  createTheme: CONFIGURES("a new theme is no email's yet"),
  // Its styles reach every email that uses it: live when a live email does (its name reaches no one).
  updateTheme: { reach: 'live', targets: ['theme', 'default theme'] },
  createTransactionalEmail: CONFIGURES('a new transactional email has an empty draft and sends nothing until published'),
  updateTransactionalEmail: CONFIGURES('its name and group reach no one'),
  ensureTransactionalDraft: CONFIGURES('a draft reaches no one until it is published'),
  createTransactionalGroup: CONFIGURES('a group files transactional emails'),
  updateTransactionalGroup: CONFIGURES('a group files transactional emails'),
  createWorkflow: CONFIGURES('a new workflow is a draft'),
  updateWorkflowProperties: CONFIGURES('its name, description and emoji reach no one'),
  createUpload: CONFIGURES('an uploaded image is in no email until an email is saved with it'),
  completeUpload: CONFIGURES('an uploaded image is in no email until an email is saved with it'),
};

/**
 * A body of each write whose reach depends on what it carries, that reaches people when its target
 * is live: a campaign's audience (its name and group never), a component's LMX, a theme's styles
 * (their names never). Any other write is judged by its path alone.
 */
export function reachingBody(operation: string | undefined): Record<string, unknown> {
  if (operation === 'updateCampaign') return { mailingListId: null };
  if (operation === 'updateComponent') return { lmx: '<Paragraph>Changed</Paragraph>' };
  if (operation === 'updateTheme') return { styles: { buttonBodyColor: '#ff0000' } };
  return {};
}

export interface WriteOperation {
  operationId: string;
  method: string;
  template: string;
  pattern: RegExp;
}

/** Every write of the contract (its webhooks are the platform's calls to an app, not the API's). */
export function writeOperations(): WriteOperation[] {
  // Read as every contract test reads it: the committed contract, or the description LOOPS_OPENAPI_FILE names (YAML or JSON).
  const contract = publishedDescriptionAsWritten() as unknown as { paths: Record<string, Record<string, { operationId?: string }>> };
  return Object.entries(contract.paths).flatMap(([template, item]) =>
    ['post', 'put', 'patch', 'delete'].flatMap((method) => {
      const operationId = item[method]?.operationId;
      if (operationId === undefined || operationId.startsWith('webhook')) return [];
      const pattern = new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`);
      return [{ operationId, method: method.toUpperCase(), template, pattern }];
    }),
  );
}

const WRITES = writeOperations();

/** The operation a request makes, by the contract's paths (an exact path before a template). */
export function operationOf(method: string, path: string): string | undefined {
  const bare = path.split('?')[0]!;
  const matching = WRITES.filter((write) => write.method === method && write.pattern.test(bare));
  return (matching.find((write) => write.template === bare) ?? matching.sort((a, b) => b.template.length - a.template.length)[0])?.operationId;
}
