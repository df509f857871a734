/**
 * The account a fresh sandbox starts with: a fictional team whose data looks like a real one and
 * exercises every command. It is deterministic (ids derived from fixed labels, fixed timestamps),
 * so tests and documentation can name its records.
 */
import { createHash } from 'node:crypto';
import type { AudienceSegment, Group, Theme, ThemeStyles, TransactionalMetrics, WorkflowNode } from '../api/schemas.js';
import type { SandboxState, StoredTransactional, StoredWorkflow } from './state.js';

/** A cuid-shaped id derived from a label: the same label always gives the same id. */
export function seedId(label: string): string {
  const digest = createHash('sha256').update(label).digest();
  const chars = Array.from(digest.subarray(0, 24), (byte) => (byte % 36).toString(36));
  return `c${chars.join('')}`;
}

const EPOCH = Date.parse('2024-09-02T08:00:00.000Z');
const HOUR = 3_600_000;

/** A fixed timestamp, `hours` after the team's first day. */
function at(hours: number): string {
  return new Date(EPOCH + hours * HOUR).toISOString();
}

// Themes -----------------------------------------------------------------------------------------

interface Palette {
  name: string;
  background: string;
  body: string;
  text: string;
  accent: string;
  heading: string;
  font: [family: string, category: string];
  radius: number;
}

const SANS: [string, string] = ['Inter', 'sans-serif'];
const SERIF: [string, string] = ['Georgia', 'serif'];
const MONO: [string, string] = ['IBM Plex Mono', 'monospace'];
const HELVETICA: [string, string] = ['Helvetica', 'sans-serif'];

const palettes: Palette[] = [
  { name: 'Default', background: '#f5f5f5', body: '#ffffff', text: '#374151', accent: '#111827', heading: '#111827', font: HELVETICA, radius: 8 },
  { name: 'Midnight', background: '#0b1020', body: '#121a2f', text: '#d1d5db', accent: '#6366f1', heading: '#f9fafb', font: SANS, radius: 10 },
  { name: 'Paper', background: '#f4efe6', body: '#fffdf8', text: '#3f3a33', accent: '#8a5a2b', heading: '#2b2620', font: SERIF, radius: 2 },
  { name: 'Forest', background: '#e8f0ea', body: '#ffffff', text: '#274032', accent: '#2f7d4f', heading: '#1b3326', font: SANS, radius: 6 },
  { name: 'Ocean', background: '#e6f2f8', body: '#ffffff', text: '#1f3b4d', accent: '#0e7490', heading: '#0c2d3f', font: SANS, radius: 8 },
  { name: 'Sunset', background: '#fff1e6', body: '#ffffff', text: '#4a2c1d', accent: '#ea580c', heading: '#3b1f12', font: HELVETICA, radius: 12 },
  { name: 'Monochrome', background: '#ffffff', body: '#ffffff', text: '#111111', accent: '#000000', heading: '#000000', font: HELVETICA, radius: 0 },
  { name: 'Terminal', background: '#0d1117', body: '#161b22', text: '#c9d1d9', accent: '#2ea043', heading: '#f0f6fc', font: MONO, radius: 4 },
  { name: 'Lavender', background: '#f5f3ff', body: '#ffffff', text: '#3b3355', accent: '#7c3aed', heading: '#2e1065', font: SANS, radius: 14 },
  { name: 'Newsprint', background: '#ededed', body: '#fafafa', text: '#262626', accent: '#b91c1c', heading: '#171717', font: SERIF, radius: 0 },
  { name: 'Citrus', background: '#fefce8', body: '#ffffff', text: '#3f3f1d', accent: '#ca8a04', heading: '#422006', font: SANS, radius: 10 },
  { name: 'Slate', background: '#f1f5f9', body: '#ffffff', text: '#334155', accent: '#475569', heading: '#0f172a', font: SANS, radius: 6 },
  { name: 'Rose', background: '#fff1f2', body: '#ffffff', text: '#4c0519', accent: '#e11d48', heading: '#4c0519', font: HELVETICA, radius: 16 },
  { name: 'Arctic', background: '#f0f9ff', body: '#ffffff', text: '#0c4a6e', accent: '#0284c7', heading: '#082f49', font: SANS, radius: 8 },
  { name: 'Espresso', background: '#2a1d16', body: '#3b2a20', text: '#eadbc8', accent: '#c08552', heading: '#fff8f0', font: SERIF, radius: 4 },
  { name: 'Mint', background: '#ecfdf5', body: '#ffffff', text: '#064e3b', accent: '#10b981', heading: '#022c22', font: SANS, radius: 12 },
  { name: 'Carbon', background: '#18181b', body: '#27272a', text: '#e4e4e7', accent: '#f59e0b', heading: '#fafafa', font: HELVETICA, radius: 6 },
  { name: 'Blueprint', background: '#1e3a8a', body: '#1e40af', text: '#dbeafe', accent: '#facc15', heading: '#ffffff', font: MONO, radius: 0 },
  { name: 'Sand', background: '#faf6f0', body: '#ffffff', text: '#57534e', accent: '#a16207', heading: '#292524', font: SERIF, radius: 6 },
  { name: 'Coral reef', background: '#fff5f2', body: '#ffffff', text: '#5b2a1f', accent: '#f97360', heading: '#3d1a12', font: SANS, radius: 10 },
  { name: 'Graphite', background: '#e5e7eb', body: '#f9fafb', text: '#1f2937', accent: '#374151', heading: '#111827', font: HELVETICA, radius: 4 },
  { name: 'Aurora', background: '#0f172a', body: '#1e293b', text: '#cbd5e1', accent: '#22d3ee', heading: '#f8fafc', font: SANS, radius: 12 },
  { name: 'Meadow', background: '#f7fee7', body: '#ffffff', text: '#365314', accent: '#65a30d', heading: '#1a2e05', font: SANS, radius: 8 },
  { name: 'Plum', background: '#faf5ff', body: '#ffffff', text: '#4a044e', accent: '#a21caf', heading: '#3b0764', font: SERIF, radius: 8 },
  { name: 'Receipt', background: '#ffffff', body: '#ffffff', text: '#222222', accent: '#222222', heading: '#222222', font: MONO, radius: 0 },
  { name: 'Holiday 2024', background: '#fdf2f2', body: '#ffffff', text: '#3f1d1d', accent: '#15803d', heading: '#7f1d1d', font: SERIF, radius: 10 },
];

function stylesOf(palette: Palette): ThemeStyles {
  const [bodyFontFamily, bodyFontCategory] = palette.font;
  return {
    backgroundColor: palette.background,
    backgroundXPadding: 24,
    backgroundYPadding: 32,
    bodyColor: palette.body,
    bodyXPadding: 32,
    bodyYPadding: 32,
    bodyFontFamily,
    bodyFontCategory,
    borderColor: palette.background,
    borderWidth: palette.radius === 0 ? 0 : 1,
    borderRadius: palette.radius,
    buttonBodyColor: palette.accent,
    buttonBodyXPadding: 20,
    buttonBodyYPadding: 12,
    buttonBorderColor: palette.accent,
    buttonBorderWidth: 0,
    buttonBorderRadius: Math.min(palette.radius, 8),
    buttonTextColor: palette.body,
    buttonTextFormat: 0,
    buttonTextFontSize: 16,
    dividerColor: palette.background,
    dividerBorderWidth: 1,
    textBaseColor: palette.text,
    textBaseFontSize: 16,
    textBaseLineHeight: 24,
    textBaseLetterSpacing: 0,
    textLinkColor: palette.accent,
    heading1Color: palette.heading,
    heading1FontSize: 30,
    heading1LineHeight: 38,
    heading1LetterSpacing: -0.5,
    heading2Color: palette.heading,
    heading2FontSize: 24,
    heading2LineHeight: 32,
    heading2LetterSpacing: -0.25,
    heading3Color: palette.heading,
    heading3FontSize: 19,
    heading3LineHeight: 27,
    heading3LetterSpacing: 0,
  };
}

const themes: Theme[] = palettes.map((palette, index) => ({
  id: seedId(`theme/${palette.name}`),
  name: palette.name,
  styles: stylesOf(palette),
  isDefault: index === 0,
  createdAt: at(index * 50),
  updatedAt: at(index * 50 + 3),
}));

// Groups -----------------------------------------------------------------------------------------

const transactionalGroupNames: [string, string][] = [
  ['General', 'Everything not sorted elsewhere; new transactional emails land here'],
  ['Account', 'Sign-up, email changes and account deletion'],
  ['Security', 'Password resets, sign-in links and new-device alerts'],
  ['Billing', 'Receipts, invoices and failed payments'],
  ['Onboarding', 'First-week emails sent from the product'],
  ['Notifications', 'Mentions, comments and assignments'],
  ['Team', 'Invitations and role changes'],
  ['Reports', 'Weekly and monthly usage reports'],
  ['Exports', 'Download links for data exports'],
  ['Integrations', 'Connected apps and webhook failures'],
  ['Support', 'Ticket updates from the help desk'],
  ['Trials', 'Trial start, midpoint and expiry'],
  ['Subscriptions', 'Plan changes, renewals and cancellations'],
  ['Orders', 'Order confirmations and shipping updates'],
  ['Events', 'Webinar and meetup registrations'],
  ['Referrals', 'Invite rewards and referral credits'],
  ['Compliance', 'Data requests and policy updates'],
  ['Mobile', 'Emails triggered from the mobile apps'],
  ['API', 'Key rotation and rate-limit warnings'],
  ['Partners', 'Emails for agencies and resellers'],
  ['Education', 'Course enrolments and certificates'],
  ['Marketplace', 'Listings, purchases and payouts'],
  ['Legacy', 'Emails kept for the old dashboard'],
  ['Experiments', 'Emails behind feature flags'],
  ['Internal', 'Alerts sent to our own team'],
  ['Localization', 'Translated variants awaiting review'],
];

const transactionalGroups: Group[] = transactionalGroupNames.map(([name, description], index) => ({
  id: seedId(`transactional-group/${name}`),
  name,
  description,
  createdAt: at(2 + index * 40),
  updatedAt: at(2 + index * 40 + (index % 3)),
}));

const groupId = (name: string) => seedId(`transactional-group/${name}`);

const campaignGroups: Group[] = [
  { id: seedId('campaign-group/Unsorted'), name: 'Unsorted', description: 'Campaigns not in any other group', createdAt: at(0), updatedAt: at(0) },
  { id: seedId('campaign-group/Newsletters'), name: 'Newsletters', description: 'The monthly product newsletter', createdAt: at(120), updatedAt: at(410) },
  {
    id: seedId('campaign-group/Product announcements'),
    name: 'Product announcements',
    description: 'Launches and major releases',
    createdAt: at(300),
    updatedAt: at(300),
  },
];

// Transactional emails -----------------------------------------------------------------------------

function transactional(
  name: string,
  hours: [created: number, updated: number],
  parts: { group: string; published: boolean; draft: boolean; dataVariables: string[]; metrics: TransactionalMetrics },
): StoredTransactional {
  const label = `transactional/${name}`;
  return {
    record: {
      id: seedId(label),
      name,
      draftEmailMessageId: parts.draft ? seedId(`${label}/draft`) : null,
      draftEmailMessageContentRevisionId: parts.draft ? seedId(`${label}/draft/revision`) : null,
      publishedEmailMessageId: parts.published ? seedId(`${label}/published`) : null,
      transactionalGroupId: groupId(parts.group),
      createdAt: at(hours[0]),
      updatedAt: at(hours[1]),
      dataVariables: parts.dataVariables,
    },
    metrics: parts.metrics,
  };
}

const transactionalEmails: StoredTransactional[] = [
  transactional('Welcome', [60, 700], {
    group: 'Onboarding',
    published: true,
    draft: false,
    dataVariables: ['firstName', 'loginUrl'],
    metrics: { sends: 18_432, deliveries: 18_211, spamReports: 9, hardBounces: 143, softBounces: 78 },
  }),
  transactional('Password reset', [65, 1_210], {
    group: 'Security',
    published: true,
    draft: true,
    dataVariables: ['firstName', 'resetUrl', 'expiresInMinutes'],
    metrics: { sends: 52_907, deliveries: 52_518, spamReports: 4, hardBounces: 231, softBounces: 158 },
  }),
  transactional('Order receipt', [240, 980], {
    group: 'Billing',
    published: true,
    draft: false,
    dataVariables: ['orderNumber', 'total', 'items', 'invoiceUrl'],
    metrics: { sends: 7_315, deliveries: 7_271, spamReports: 2, hardBounces: 29, softBounces: 15 },
  }),
  transactional('Magic sign-in link', [520, 1_330], {
    group: 'Security',
    published: true,
    draft: true,
    dataVariables: ['signInUrl'],
    metrics: { sends: 126_044, deliveries: 125_102, spamReports: 31, hardBounces: 604, softBounces: 338 },
  }),
  transactional('Payment failed', [1_300, 1_342], {
    group: 'Billing',
    published: false,
    draft: true,
    dataVariables: [],
    metrics: { sends: 0, deliveries: 0, spamReports: 0, hardBounces: 0, softBounces: 0 },
  }),
];

// Segments and sending IPs -------------------------------------------------------------------------

const segments: AudienceSegment[] = [
  {
    id: seedId('segment/Paying customers'),
    name: 'Paying customers',
    description: 'Everyone on a paid plan',
    createdAt: at(90),
    updatedAt: at(640),
    filter: { match: 'any', conditions: [{ type: 'property', key: 'plan', operator: 'equals', value: 'pro' }, { type: 'property', key: 'plan', operator: 'equals', value: 'business' }] },
  },
  {
    id: seedId('segment/Trials in Europe'),
    name: 'Trials in Europe',
    description: 'Trial accounts with a European billing country',
    createdAt: at(310),
    updatedAt: at(310),
    filter: { match: 'all', conditions: [{ type: 'property', key: 'plan', operator: 'equals', value: 'trial' }, { type: 'property', key: 'region', operator: 'equals', value: 'EU' }] },
  },
  {
    id: seedId('segment/Dormant'),
    name: 'Dormant',
    description: 'No sign-in for the last 90 days',
    createdAt: at(880),
    updatedAt: at(905),
    filter: { match: 'all', conditions: [{ type: 'property', key: 'lastSignInAt', operator: 'before', value: '2024-11-01T00:00:00.000Z' }] },
  },
];

/** Addresses from the ranges set aside for documentation, so no real host is ever named. */
const sendingIps = ['198.51.100.24', '198.51.100.25', '203.0.113.71', '203.0.113.72', '2001:db8:4f1::24', '2001:db8:4f1::25'];

// Workflows ---------------------------------------------------------------------------------------

type NodeFields = Pick<WorkflowNode, 'typeName'> & Record<string, unknown>;

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
    createdAt: at(details.hours[0]),
    updatedAt: at(details.hours[1]),
    nodes: nodes.map(([label, fields, next]) => ({ id: nodeId(label), workflowId, ...fields, nextNodeIds: next.map(nodeId) })),
  };
}

const emailMessage = (label: string) => seedId(`email-message/${label}`);
const NEWSLETTER_LIST = seedId('mailing-list/Product updates');
const BETA_LIST = seedId('mailing-list/Beta testers');

const workflows: StoredWorkflow[] = [
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

/** Ids the documentation and tests refer to. */
export const SEED_IDS = {
  welcomeWorkflow: seedId('workflow/Welcome series'),
  trialWorkflow: seedId('workflow/Trial conversion'),
  experimentWorkflow: seedId('workflow/Beta onboarding subject test'),
  passwordReset: seedId('transactional/Password reset'),
  welcomeEmail: seedId('transactional/Welcome'),
  draftOnlyEmail: seedId('transactional/Payment failed'),
  defaultTransactionalGroup: groupId('General'),
  unsortedCampaignGroup: seedId('campaign-group/Unsorted'),
  newslettersCampaignGroup: seedId('campaign-group/Newsletters'),
} as const;

/** A fresh copy of the seed, safe to change. */
export function seedState(): SandboxState {
  return structuredClone({
    version: 1,
    teamName: 'Acme Sandbox',
    defaultTransactionalGroupId: SEED_IDS.defaultTransactionalGroup,
    sequence: 0,
    themes,
    transactionalGroups,
    campaignGroups,
    transactionalEmails,
    segments,
    sendingIps,
    workflows,
  });
}
