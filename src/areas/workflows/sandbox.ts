/** The sandbox's workflows: their graphs in full, and the simplified view the API answers with. */
import { z } from '../../api/schemas.js';
import { answer, find, listAnswer, notFound, seedId, seedTime, slice, type SandboxModule } from '../../sandbox/module.js';
import * as s from './schemas.js';

const storedWorkflow = z.object({
  id: z.string(),
  workflowRevisionId: z.string().nullable(),
  status: z.string(),
  name: z.string(),
  description: z.string(),
  emoji: z.string(),
  mailingListId: z.string().nullable(),
  rootNodeId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Nodes in their full form; the simplified view is derived from them. */
  nodes: z.array(s.workflowNode),
});
export type StoredWorkflow = z.infer<typeof storedWorkflow>;

type NodeFields = Pick<s.WorkflowNode, 'typeName'> & Record<string, unknown>;

/**
 * A workflow from its nodes, each named by a label and listing the labels it leads to. The first
 * node is the trigger.
 */
function workflow(
  name: string,
  details: { emoji: string; description: string; status: string; mailingListId: string | null; hours: [created: number, updated: number] },
  nodes: [label: string, fields: NodeFields, next: string[]][],
): StoredWorkflow {
  const workflowId = seedId(`workflow/${name}`);
  const nodeId = (label: string) => seedId(`workflow/${name}/${label}`);
  return {
    id: workflowId,
    workflowRevisionId: seedId(`workflow/${name}/revision`),
    status: details.status,
    name,
    description: details.description,
    emoji: details.emoji,
    mailingListId: details.mailingListId,
    rootNodeId: nodeId(nodes[0]![0]),
    createdAt: seedTime(details.hours[0]),
    updatedAt: seedTime(details.hours[1]),
    nodes: nodes.map(([label, fields, next]) => ({ id: nodeId(label), workflowId, ...fields, nextNodeIds: next.map(nodeId) })),
  };
}

const emailMessage = (label: string) => seedId(`email-message/${label}`);
const NEWSLETTER_LIST = seedId('mailing-list/Product updates');
const BETA_LIST = seedId('mailing-list/Beta testers');

const seedWorkflows: StoredWorkflow[] = [
  workflow(
    'Welcome series',
    { emoji: '👋', description: 'Three emails over the first week after sign-up', status: 'Sending', mailingListId: NEWSLETTER_LIST, hours: [70, 1_100] },
    [
      ['signup', { typeName: 'SignupTrigger' }, ['welcome']],
      ['welcome', { typeName: 'SendEmailAction', emailMessageId: emailMessage('welcome-1'), subject: 'Welcome aboard, {firstName}' }, ['wait-2d']],
      ['wait-2d', { typeName: 'TimerAction', amount: 2, unit: 'd' }, ['paying']],
      ['paying', { typeName: 'AudienceFilter', audienceSegmentId: seedId('segment/Paying customers'), appliesDownstream: false }, ['tips']],
      ['tips', { typeName: 'SendEmailAction', emailMessageId: emailMessage('welcome-2'), subject: 'Five tips for your first week' }, ['wait-5d']],
      ['wait-5d', { typeName: 'TimerAction', amount: 5, unit: 'd' }, ['feedback']],
      ['feedback', { typeName: 'SendEmailAction', emailMessageId: emailMessage('welcome-3'), subject: 'How is it going so far?' }, ['done']],
      ['done', { typeName: 'ExitAction' }, []],
    ],
  ),
  workflow(
    'Trial conversion',
    { emoji: '🚀', description: 'Nudges trial users towards a plan, by how far they got', status: 'Sending', mailingListId: null, hours: [400, 1_250] },
    [
      [
        'trial-started',
        {
          typeName: 'EventTrigger',
          eventName: 'trial_started',
          eventProperties: [
            { name: 'plan', type: 'string' },
            { name: 'seats', type: 'number' },
            { name: 'invitedTeam', type: 'boolean' },
            { name: 'trialEndsAt', type: 'date' },
          ],
          reEligible: false,
        },
        ['wait-1h'],
      ],
      ['wait-1h', { typeName: 'TimerAction', amount: 1, unit: 'h' }, ['branch']],
      ['branch', { typeName: 'BranchNode', evalStrategy: 'first_match' }, ['activated', 'not-activated']],
      [
        'activated',
        { typeName: 'AudienceFilter', audienceFilter: { match: 'all', conditions: [{ type: 'property', key: 'projectsCreated', operator: 'greaterThan', value: 0 }] }, appliesDownstream: true },
        ['upgrade-offer'],
      ],
      ['upgrade-offer', { typeName: 'SendEmailAction', emailMessageId: emailMessage('trial-upgrade'), subject: 'Keep your projects: 20% off your first year' }, ['wait-3d']],
      [
        'not-activated',
        { typeName: 'AudienceFilter', audienceFilter: { match: 'all', conditions: [{ type: 'property', key: 'projectsCreated', operator: 'equals', value: 0 }] }, appliesDownstream: true },
        ['wait-30m'],
      ],
      ['wait-30m', { typeName: 'TimerAction', amount: 30, unit: 'm' }, ['getting-started']],
      ['getting-started', { typeName: 'SendEmailAction', emailMessageId: emailMessage('trial-getting-started'), subject: 'Your first project in 5 minutes' }, ['wait-3d']],
      ['wait-3d', { typeName: 'TimerAction', amount: 3, unit: 'd' }, ['trial-ending']],
      ['trial-ending', { typeName: 'SendEmailAction', emailMessageId: emailMessage('trial-ending'), subject: 'Your trial ends in 4 days' }, ['exit']],
      ['exit', { typeName: 'ExitAction' }, []],
    ],
  ),
  workflow(
    'Beta onboarding subject test',
    { emoji: '🧪', description: 'Splits new beta testers between two subject lines', status: 'Paused', mailingListId: BETA_LIST, hours: [760, 1_180] },
    [
      ['joined-beta', { typeName: 'AddToListTrigger', mailingListId: BETA_LIST, reEligible: true }, ['experiment']],
      [
        'experiment',
        { typeName: 'ExperimentBranchNode', samplingRate: 50, experimentId: seedId('experiment/beta-subject'), experimentType: 'autosplit' },
        ['control', 'variant-b'],
      ],
      ['control', { typeName: 'VariantNode', variantId: seedId('experiment/beta-subject/a'), isControl: true }, ['subject-a']],
      ['subject-a', { typeName: 'SendEmailAction', emailMessageId: emailMessage('beta-a'), subject: "You're in the beta" }, ['exit']],
      ['variant-b', { typeName: 'VariantNode', variantId: seedId('experiment/beta-subject/b'), isControl: false }, ['subject-b']],
      ['subject-b', { typeName: 'SendEmailAction', emailMessageId: emailMessage('beta-b'), subject: 'Your early access is ready' }, ['exit']],
      ['exit', { typeName: 'ExitAction' }, []],
    ],
  ),
  workflow(
    'Upgrade thank-you',
    { emoji: '💜', description: 'Thanks customers who move from free to pro', status: 'Sending', mailingListId: null, hours: [980, 990] },
    [
      [
        'plan-changed',
        {
          typeName: 'ContactPropertyTrigger',
          contactPropertyQuery: { key: 'plan', was: { value: 'free', operator: 'equal' }, is: { value: 'pro', operator: 'equal' } },
          reEligible: false,
        },
        ['thank-you'],
      ],
      ['thank-you', { typeName: 'SendEmailAction', emailMessageId: emailMessage('upgrade-thanks'), subject: 'Thank you for upgrading' }, ['exit']],
      ['exit', { typeName: 'ExitAction' }, []],
    ],
  ),
  workflow(
    'Win-back (draft)',
    { emoji: '🌱', description: 'A webhook-scored experiment for dormant contacts, not yet started', status: 'Draft', mailingListId: null, hours: [1_320, 1_345] },
    [
      ['start', { typeName: 'BlankTrigger' }, ['dormant']],
      ['dormant', { typeName: 'AudienceFilter', audienceSegmentId: seedId('segment/Dormant'), appliesDownstream: true }, ['score']],
      [
        'score',
        { typeName: 'ExperimentBranchNode', samplingRate: 20, url: 'https://hooks.example.com/loops/win-back', experimentId: seedId('experiment/win-back'), experimentType: 'webhook' },
        ['holdout', 'offer-variant'],
      ],
      ['holdout', { typeName: 'VariantNode', variantId: seedId('experiment/win-back/holdout'), isControl: true }, ['exit']],
      ['offer-variant', { typeName: 'VariantNode', variantId: seedId('experiment/win-back/offer'), isControl: false }, ['offer']],
      ['offer', { typeName: 'SendEmailAction', emailMessageId: emailMessage('win-back-offer'), subject: 'We saved your workspace' }, ['exit']],
      ['exit', { typeName: 'ExitAction' }, []],
    ],
  ),
];

export const workflows = slice('workflows', z.array(storedWorkflow), () => seedWorkflows);

function summary(workflow: StoredWorkflow): s.WorkflowSummary {
  return { id: workflow.id, name: workflow.name, createdAt: workflow.createdAt, updatedAt: workflow.updatedAt };
}

/** The fields the simplified view shows for each node type, as the published description lists them. */
const SIMPLIFIED_FIELDS: Partial<Record<s.KnownNodeType, string[]>> = {
  EventTrigger: ['eventName', 'reEligible'],
  ContactPropertyTrigger: ['contactPropertyQuery', 'reEligible'],
  AddToListTrigger: ['mailingListId', 'reEligible'],
  TimerAction: ['amount', 'unit'],
  SendEmailAction: ['emailMessageId', 'subject'],
  ExperimentBranchNode: ['samplingRate'],
  VariantNode: ['isControl'],
};

function simplified(workflow: StoredWorkflow): s.Workflow {
  const nodes = Object.fromEntries(
    workflow.nodes.map((node) => {
      const { id, workflowId: _workflow, workflowRevisionId: _revision, ...fields } = node;
      // A node of a type the sandbox does not know shows all it carries, as an alpha API might.
      if (!s.isKnownNodeType(node.typeName)) return [id, fields];
      const view: Record<string, unknown> = { typeName: node.typeName, nextNodeIds: node.nextNodeIds };
      for (const key of SIMPLIFIED_FIELDS[node.typeName] ?? []) if (node[key] !== undefined) view[key] = node[key];
      return [id, view];
    }),
  );
  const { createdAt: _created, updatedAt: _updated, nodes: _full, ...fields } = workflow;
  return { ...fields, nodes } as s.Workflow;
}

function workflowNode(all: StoredWorkflow[], workflowId: string, nodeId: string): s.WorkflowNode {
  const workflow = find(all, workflowId, 'workflow');
  const node = workflow.nodes.find((candidate) => candidate.id === nodeId);
  if (node === undefined) throw notFound(`node ${nodeId} not found in workflow ${workflowId}`);
  return { ...node, workflowRevisionId: workflow.workflowRevisionId };
}

export const sandbox: SandboxModule = {
  slices: [workflows],
  routes: [
    { method: 'GET', path: '/v1/workflows', needs: 'workflows', run: ({ query, state }) => listAnswer(s.workflowSummary, workflows.of(state).map(summary), query) },
    {
      method: 'GET',
      path: '/v1/workflows/:workflowId',
      needs: 'workflows',
      run: ({ params, state }) => answer(s.workflow, simplified(find(workflows.of(state), params.workflowId!, 'workflow'))),
    },
    {
      method: 'GET',
      path: '/v1/workflows/:workflowId/nodes/:nodeId',
      needs: 'workflows',
      run: ({ params, state }) => answer(s.workflowNode, workflowNode(workflows.of(state), params.workflowId!, params.nodeId!)),
    },
  ],
};
