/**
 * The workflows the sandbox keeps, as its state holds them (their graphs in full, with what each
 * send-email node sent), and the demo team's. Apart from the routes (./workflows.ts), so that the
 * modules that read workflows (the email messages' seed, webhooks) need none of them.
 */

import { madeOnUse, z } from '../../base/shapes.js';
import { type EmailMetrics, emailMetrics } from '../../platform/email-metrics.js';
import * as s from '../../platform/workflows/schemas.js';
import { fieldsCheckedOnRead, lazily, seedId, seedTime, slice } from '../module.js';

const storedWorkflow = z.object({
  id: z.string(),
  workflowRevisionId: z.nullable(z.string()),
  status: z.string(),
  name: z.string(),
  description: z.string(),
  emoji: z.string(),
  mailingListId: z.nullable(z.string()),
  rootNodeId: z.nullable(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Nodes in their full form; the simplified view is derived from them. */
  nodes: z.array(s.workflowNode),
  /**
   * What each send-email node has sent, by node id (a node not named has sent nothing). Never in an
   * answer but its own. Made on its first read: a listing makes no record schema but this one.
   */
  emailMetrics: z.optional(madeOnUse(() => z.record(z.string(), emailMetrics))),
});
export type StoredWorkflow = z.infer<typeof storedWorkflow>;

type NodeFields = Pick<s.WorkflowNode, 'typeName'> & Record<string, unknown>;

/**
 * A workflow from its nodes, each named by a label and listing the labels it leads to. The first
 * node is the trigger.
 */
function workflow(
  name: string,
  details: {
    emoji: string;
    description: string;
    status: string;
    mailingListId: string | null;
    hours: [created: number, updated: number];
    /** What send-email nodes have sent, by label. */
    metrics?: Record<string, EmailMetrics>;
  },
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
    emailMetrics: Object.fromEntries(Object.entries(details.metrics ?? {}).map(([label, metrics]) => [nodeId(label), metrics])),
  };
}

const emailMessage = (label: string) => seedId(`email-message/${label}`);

/**
 * What a send-email node has sent. The seed's figures are chosen so that a rate taken over the
 * wrong total (delivered sends, opens) reads visibly differently from the rate over sends.
 */
function sent(sends: number, opens: number, clicks: number, unsubscribes: number, hardBounces: number, softBounces: number, spamReports: number): EmailMetrics {
  return { sends, opens, clicks, unsubscribes, spamReports, hardBounces, softBounces };
}
// Ids are made when the seed is, not when a request first loads this module.
const newsletterList = () => seedId('mailing-list/Product updates');
const betaList = () => seedId('mailing-list/Beta testers');

// The seed is data, the sample account's workflows side by side: one piece. The contacts queued in
// them are real journeys (../journey-records.ts): Grace, held behind variant B's email of the
// paused beta test.
const seedWorkflows = lazily((): StoredWorkflow[] => [
  workflow(
    'Welcome series',
    {
      emoji: '👋',
      description: 'Three emails over the first week after sign-up',
      status: 'Sending',
      mailingListId: newsletterList(),
      hours: [70, 1_100],
      metrics: { welcome: sent(2_000, 1_100, 300, 20, 100, 60, 10), tips: sent(1_200, 480, 96, 24, 48, 24, 6), feedback: sent(900, 270, 45, 27, 27, 9, 9) },
    },
    [
      ['signup', { typeName: 'SignupTrigger' }, ['welcome']],
      ['welcome', { typeName: 'SendEmailAction', emailMessageId: emailMessage('welcome-1'), subject: 'Welcome aboard, {contact.firstName}' }, ['wait-2d']],
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
    {
      emoji: '🚀',
      description: 'Nudges trial users towards a plan, by how far they got',
      status: 'Sending',
      mailingListId: null,
      hours: [400, 1_250],
      metrics: {
        'upgrade-offer': sent(640, 288, 96, 8, 32, 16, 4),
        'getting-started': sent(1_600, 560, 128, 16, 120, 40, 8),
        'trial-ending': sent(1_800, 630, 90, 36, 90, 54, 18),
      },
    },
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
        {
          typeName: 'AudienceFilter',
          audienceFilter: { match: 'all', conditions: [{ type: 'property', key: 'projectsCreated', operator: 'greaterThan', value: 0 }] },
          appliesDownstream: true,
        },
        ['upgrade-offer'],
      ],
      [
        'upgrade-offer',
        { typeName: 'SendEmailAction', emailMessageId: emailMessage('trial-upgrade'), subject: 'Keep your projects: 20% off your first year' },
        ['wait-3d'],
      ],
      [
        'not-activated',
        {
          typeName: 'AudienceFilter',
          audienceFilter: { match: 'all', conditions: [{ type: 'property', key: 'projectsCreated', operator: 'equals', value: 0 }] },
          appliesDownstream: true,
        },
        ['wait-30m'],
      ],
      ['wait-30m', { typeName: 'TimerAction', amount: 30, unit: 'm' }, ['getting-started']],
      [
        'getting-started',
        { typeName: 'SendEmailAction', emailMessageId: emailMessage('trial-getting-started'), subject: 'Your first project in 5 minutes' },
        ['wait-3d'],
      ],
      ['wait-3d', { typeName: 'TimerAction', amount: 3, unit: 'd' }, ['trial-ending']],
      ['trial-ending', { typeName: 'SendEmailAction', emailMessageId: emailMessage('trial-ending'), subject: 'Your trial ends in 4 days' }, ['exit']],
      ['exit', { typeName: 'ExitAction' }, []],
    ],
  ),
  workflow(
    'Beta onboarding subject test',
    {
      emoji: '🧪',
      description: 'Splits new beta testers between two subject lines',
      status: 'Paused',
      mailingListId: betaList(),
      hours: [760, 1_180],
      metrics: { 'subject-a': sent(400, 220, 60, 4, 20, 12, 2), 'subject-b': sent(400, 260, 44, 6, 16, 8, 2) },
    },
    [
      ['joined-beta', { typeName: 'AddToListTrigger', mailingListId: betaList(), reEligible: true }, ['experiment']],
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
    {
      emoji: '💜',
      description: 'Thanks customers who move from free to pro',
      status: 'Sending',
      mailingListId: null,
      hours: [980, 990],
      metrics: { 'thank-you': sent(250, 200, 25, 0, 10, 5, 0) },
    },
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
    {
      emoji: '🌱',
      description: 'A webhook-scored experiment for dormant contacts, not yet started',
      status: 'Draft',
      mailingListId: null,
      hours: [1_320, 1_345],
    },
    [
      ['start', { typeName: 'BlankTrigger' }, ['dormant']],
      ['dormant', { typeName: 'AudienceFilter', audienceSegmentId: seedId('segment/Dormant'), appliesDownstream: true }, ['score']],
      [
        'score',
        {
          typeName: 'ExperimentBranchNode',
          samplingRate: 20,
          url: 'https://hooks.example.com/loops/win-back',
          experimentId: seedId('experiment/win-back'),
          experimentType: 'webhook',
        },
        ['holdout', 'offer-variant'],
      ],
      ['holdout', { typeName: 'VariantNode', variantId: seedId('experiment/win-back/holdout'), isControl: true }, ['exit']],
      ['offer-variant', { typeName: 'VariantNode', variantId: seedId('experiment/win-back/offer'), isControl: false }, ['offer']],
      ['offer', { typeName: 'SendEmailAction', emailMessageId: emailMessage('win-back-offer'), subject: 'We saved your workspace' }, ['exit']],
      ['exit', { typeName: 'ExitAction' }, []],
    ],
  ),
]);

/** Checked when read from a file, each workflow's nodes and metrics when a route first reads them (a listing never does). */
export const workflows = slice(
  'workflows',
  fieldsCheckedOnRead<StoredWorkflow[]>(z.array(z.omit(storedWorkflow, { nodes: true, emailMetrics: true })), {
    nodes: storedWorkflow.shape.nodes,
    emailMetrics: storedWorkflow.shape.emailMetrics,
  }),
  seedWorkflows,
);

/** A send-email node that has sent nothing. */
export const NOTHING_SENT: EmailMetrics = sent(0, 0, 0, 0, 0, 0, 0);
