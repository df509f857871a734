/**
 * Workflows as the platform says it runs them, as data: each scenario a workflow file (the form
 * `content pull` writes), the platform's sentence it comes from and where that was published, what
 * `content check` says of it, and the emails each contact gets. workflows.test.ts runs every one
 * through `workflow test --file`, `content check` and a running sandbox alike. A scenario's
 * `sandbox` part is what only a running sandbox can do to a journey under way (pause it, change
 * its list, delete its node, unsubscribe its contact, trigger it again).
 */

/** Where the platform published it. */
export const DESCRIPTION = 'the published API description 1.22.1 (test/contract/loops-1.22.1.json)';
export const EXPERIMENTS = 'https://loops.so/docs/loop-builder/experiments';
export const PAUSING = 'https://loops.so/docs/loop-builder/pausing-loops';

export interface ContactRun {
  /** The contact (an email, and its fields and custom properties). */
  contact: { email: string } & Record<string, unknown>;
  /** The event sent, for an event trigger (its own when not given). */
  event?: string;
  /** A change to the contact once created, which fires a property trigger (`workflow test` starts the contact at such a trigger). */
  change?: Record<string, unknown>;
  /** The subjects it is sent, in order. */
  emails: string[];
  /** It never enters (the trigger does not fire, or who may enter excludes it). */
  notStarted?: true;
}

/** What is done to a sandbox's journey under way, after the contact entered and the clock moved `after`. */
export type SandboxStep =
  | { after: string; do: 'status'; status: string }
  | { after: string; do: 'unsubscribe' }
  | { after: string; do: 'update'; fields: Record<string, unknown> }
  | { after: string; do: 'event' }
  | { after: string; do: 'set-list'; list: string }
  | { after: string; do: 'delete-node'; type: string };

export interface Scenario {
  name: string;
  /** The platform's sentence this scenario holds it to. */
  platform: string;
  /** Where it was published. */
  source: string;
  /** workflow.yaml; each send-email node names `emails/<slug>/email.json`, whose subject is `subjects[slug]`. */
  workflow: string;
  subjects: Record<string, string>;
  /** content check: clean, or the rules of its errors. */
  check: 'clean' | string[];
  /** The contacts run straight through, on every path. */
  runs: ContactRun[];
  /** In the running sandbox only: one contact, steps done to its journey under way, and the emails it gets in all. */
  sandbox?: { contact: ContactRun['contact']; steps: SandboxStep[]; emails: string[] };
}

const email = (key: string, slug: string, next: string[]) =>
  `  ${key}:\n    type: SendEmailAction\n    next: [${next.join(', ')}]\n    email: emails/${slug}/email.json\n`;
const timer = (key: string, amount: number, unit: string, next: string[]) =>
  `  ${key}:\n    type: TimerAction\n    next: [${next.join(', ')}]\n    amount: ${amount}\n    unit: ${unit}\n`;
const exit = '  exit:\n    type: ExitAction\n    next: []\n';
const eventTrigger = (name: string, next: string, reEligible = false) =>
  `  start:\n    type: EventTrigger\n    next: [${next}]\n    eventName: ${name}\n    reEligible: ${reEligible}\n`;
const filter = (key: string, next: string[], fields: string) => `  ${key}:\n    type: AudienceFilter\n    next: [${next.join(', ')}]\n${fields}`;
const workflow = (name: string, nodes: string, head = '') => `name: ${name}\n${head}root: start\nnodes:\n${nodes}`;
const plan = (value: string) => `    audienceFilter: {match: all, conditions: [{type: property, key: plan, operator: equals, value: ${value}}]}\n`;

// The scenarios are data, side by side: one piece.
export const SCENARIOS: Scenario[] = [
  {
    name: 'a blank trigger starts nobody',
    platform: 'Create a draft workflow with a blank trigger and exit node.',
    source: `${DESCRIPTION}, createWorkflow (a new workflow's trigger is blank until it is set in the app)`,
    workflow: workflow('Not started yet', `  start:\n    type: BlankTrigger\n    next: [hello]\n${email('hello', 'hello', ['exit'])}${exit}`),
    subjects: { hello: 'Hello' },
    check: 'clean',
    runs: [{ contact: { email: 'anyone@example.com' }, emails: [], notStarted: true }],
  },
  {
    name: 'a sign-up, a wait, an email',
    platform: 'The amount of time to wait before triggering the next node.',
    source: `${DESCRIPTION}, WorkflowTimerAmount`,
    workflow: workflow(
      'Signup welcome',
      `  start:\n    type: SignupTrigger\n    next: [wait]\n${timer('wait', 1, 'h', ['hello'])}${email('hello', 'hello', ['exit'])}${exit}`,
    ),
    subjects: { hello: 'Welcome' },
    check: 'clean',
    runs: [{ contact: { email: 'new@example.com' }, emails: ['Welcome'] }],
  },
  {
    name: 'an event trigger, its name compared exactly',
    platform: 'The name of the event pattern that triggers this node.',
    source: `${DESCRIPTION}, EventTrigger's eventName`,
    workflow: workflow('Trial started', `${eventTrigger('trial_started', 'hello')}${email('hello', 'hello', ['exit'])}${exit}`),
    subjects: { hello: 'Your trial' },
    check: 'clean',
    runs: [
      { contact: { email: 'exact@example.com' }, event: 'trial_started', emails: ['Your trial'] },
      { contact: { email: 'cased@example.com' }, event: 'Trial_Started', emails: [], notStarted: true },
    ],
  },
  {
    name: 'a timer of 0 moves on at once',
    platform: 'Set to `0` to move to the next node immediately.',
    source: `${DESCRIPTION}, WorkflowTimerAmount`,
    workflow: workflow('Immediately', `${eventTrigger('now', 'wait')}${timer('wait', 0, 'm', ['hello'])}${email('hello', 'hello', ['exit'])}${exit}`),
    subjects: { hello: 'Right away' },
    check: 'clean',
    runs: [{ contact: { email: 'now@example.com' }, emails: ['Right away'] }],
  },
  {
    name: 'an email as the last node',
    platform: 'The IDs of the nodes that are downstream of this node.',
    source: `${DESCRIPTION}, WorkflowNextNodeIds (its SimplifiedWorkflow example ends on an email)`,
    workflow: workflow('Last email', `${eventTrigger('last', 'hello')}${email('hello', 'hello', [])}`),
    subjects: { hello: 'The end' },
    check: 'clean',
    runs: [{ contact: { email: 'last@example.com' }, emails: ['The end'] }],
  },
  {
    name: 'a property change trigger',
    platform: 'Workflows let you send emails based on something happening, like a contact property updating',
    source: 'https://loops.so/docs/workflows',
    workflow: workflow(
      'Upgraded',
      `  start:\n    type: ContactPropertyTrigger\n    next: [thanks]\n    contactPropertyQuery: {key: plan, was: {value: free, operator: equal}, is: {value: pro, operator: equal}}\n    reEligible: false\n${email('thanks', 'thanks', ['exit'])}${exit}`,
    ),
    subjects: { thanks: 'Thanks for upgrading' },
    check: 'clean',
    runs: [{ contact: { email: 'upgraded@example.com', plan: 'free' }, change: { plan: 'pro' }, emails: ['Thanks for upgrading'] }],
  },
  {
    name: 'a filter that applies to its node only',
    platform: 'If `false`, the audience filter will only apply to the current node.',
    source: `${DESCRIPTION}, appliesDownstream`,
    workflow: workflow(
      'Filter here',
      `${eventTrigger('here', 'pro')}${filter('pro', ['first'], `${plan('pro')}    appliesDownstream: false\n`)}${email('first', 'first', ['wait'])}${timer('wait', 1, 'd', ['second'])}${email('second', 'second', ['exit'])}${exit}`,
    ),
    subjects: { first: 'First', second: 'Second' },
    check: 'clean',
    runs: [
      { contact: { email: 'pro@example.com', plan: 'pro' }, emails: ['First', 'Second'] },
      { contact: { email: 'free@example.com', plan: 'free' }, emails: [] },
    ],
    // A contact that no longer matches later still gets the next email: the filter was its node's alone.
    sandbox: {
      contact: { email: 'downgrade@example.com', plan: 'pro' },
      steps: [{ after: '1h', do: 'update', fields: { plan: 'free' } }],
      emails: ['First', 'Second'],
    },
  },
  {
    name: 'a filter that applies downstream',
    platform: 'If `true`, the audience filter will apply to all downstream nodes.',
    source: `${DESCRIPTION}, appliesDownstream`,
    workflow: workflow(
      'Filter downstream',
      `${eventTrigger('downstream', 'pro')}${filter('pro', ['first'], `${plan('pro')}    appliesDownstream: true\n`)}${email('first', 'first', ['wait'])}${timer('wait', 1, 'd', ['second'])}${email('second', 'second', ['exit'])}${exit}`,
    ),
    subjects: { first: 'First', second: 'Second' },
    check: 'clean',
    runs: [{ contact: { email: 'pro@example.com', plan: 'pro' }, emails: ['First', 'Second'] }],
    // A contact that no longer matches is stopped before the next email.
    sandbox: { contact: { email: 'downgrade@example.com', plan: 'pro' }, steps: [{ after: '1h', do: 'update', fields: { plan: 'free' } }], emails: ['First'] },
  },
  {
    name: 'a filter with a segment and conditions',
    platform: "When both are provided, this filter is applied on top of the segment's filter.",
    source: `${DESCRIPTION}, AudienceFilterInRequest`,
    workflow: workflow(
      'Big payers',
      `${eventTrigger('big', 'payers')}${filter(
        'payers',
        ['offer'],
        '    segment: Paying customers\n    audienceFilter: {match: all, conditions: [{type: property, key: seats, operator: greaterThan, value: 10}]}\n',
      )}${email('offer', 'offer', ['exit'])}${exit}`,
    ),
    subjects: { offer: 'Volume pricing' },
    check: 'clean',
    runs: [
      { contact: { email: 'big@example.com', plan: 'pro', seats: 40 }, emails: ['Volume pricing'] },
      { contact: { email: 'small@example.com', plan: 'pro', seats: 2 }, emails: [] },
      { contact: { email: 'free@example.com', plan: 'free', seats: 40 }, emails: [] },
    ],
  },
  {
    name: 'a branch takes the first path whose filter matches',
    platform: 'a workflow cannot be started unless each direct `BranchNode` child is an `AudienceFilter`',
    source: `${DESCRIPTION}, createWorkflowNode`,
    workflow: workflow(
      'Branching',
      `${eventTrigger('branch', 'split')}  split:\n    type: BranchNode\n    next: [pro, free]\n${filter('pro', ['pro-email'], plan('pro'))}${filter('free', ['free-email'], plan('free'))}${email('pro-email', 'pro', ['exit'])}${email('free-email', 'free', ['exit'])}${exit}`,
    ),
    subjects: { pro: 'For pros', free: 'Go pro' },
    check: 'clean',
    runs: [
      { contact: { email: 'pro@example.com', plan: 'pro' }, emails: ['For pros'] },
      { contact: { email: 'free@example.com', plan: 'free' }, emails: ['Go pro'] },
      { contact: { email: 'team@example.com', plan: 'team' }, emails: [] },
    ],
  },
  {
    name: 'an experiment with a control',
    platform: 'The remaining percentage will be sent to the control branch. `100` sends all contacts to variant branches.',
    source: `${DESCRIPTION}, ExperimentBranchNode's samplingRate`,
    workflow: workflow(
      'Experiment all in',
      `${eventTrigger('split', 'experiment')}  experiment:\n    type: ExperimentBranchNode\n    next: [variant, control]\n    samplingRate: 100\n  variant:\n    type: VariantNode\n    next: [variant-email]\n    isControl: false\n  control:\n    type: VariantNode\n    next: [control-email]\n    isControl: true\n${email('variant-email', 'variant', ['exit'])}${email('control-email', 'control', ['exit'])}${exit}`,
    ),
    subjects: { variant: 'New subject', control: 'Old subject' },
    check: 'clean',
    runs: [{ contact: { email: 'sample@example.com' }, emails: ['New subject'] }],
  },
  {
    name: 'an experiment without a control',
    platform:
      'A control is optional; you can create an experiment without a control branch. If you do not add a control branch, only your selected sample size will be sent through the experiment node.',
    source: EXPERIMENTS,
    workflow: workflow(
      'Experiment no control',
      `${eventTrigger('nocontrol', 'experiment')}  experiment:\n    type: ExperimentBranchNode\n    next: [variant]\n    samplingRate: 0\n  variant:\n    type: VariantNode\n    next: [variant-email]\n    isControl: false\n${email('variant-email', 'variant', ['exit'])}${exit}`,
    ),
    subjects: { variant: 'New subject' },
    check: 'clean',
    // A sample of 0%: every contact leaves at the experiment.
    runs: [{ contact: { email: 'outside@example.com' }, emails: [] }],
  },
  {
    name: 'an exit ends the journey',
    platform: 'The IDs of the nodes that are downstream of this node.',
    source: `${DESCRIPTION}, WorkflowNextNodeIds`,
    workflow: workflow('Exit early', `${eventTrigger('early', 'exit')}  exit:\n    type: ExitAction\n    next: []\n`),
    subjects: {},
    check: 'clean',
    runs: [{ contact: { email: 'gone@example.com' }, emails: [] }],
  },
  {
    name: 'a list trigger',
    platform: 'When using the Contact added to list trigger, this option is removed and you can instead select the list from the trigger node.',
    source: 'https://loops.so/docs/workflows ("Mailing lists")',
    workflow: workflow(
      'Beta joined',
      `  start:\n    type: AddToListTrigger\n    next: [hello]\n    reEligible: false\n${email('hello', 'hello', ['exit'])}${exit}`,
      'mailingList: Beta testers\n',
    ),
    subjects: { hello: 'Welcome to the beta' },
    check: 'clean',
    runs: [{ contact: { email: 'beta@example.com' }, emails: ['Welcome to the beta'] }],
  },
  {
    name: 'an unsubscribed contact',
    platform:
      'this assumes that these contacts still meet the necessary criteria to receive the email (e.g., they are subscribed and match any audience filters or other conditions you’ve set)',
    source: PAUSING,
    workflow: workflow(
      'Nudges',
      `${eventTrigger('nudge', 'first')}${email('first', 'first', ['wait'])}${timer('wait', 1, 'd', ['second'])}${email('second', 'second', ['exit'])}${exit}`,
    ),
    subjects: { first: 'First nudge', second: 'Second nudge' },
    check: 'clean',
    runs: [
      { contact: { email: 'subscribed@example.com' }, emails: ['First nudge', 'Second nudge'] },
      { contact: { email: 'unsubscribed@example.com', subscribed: false }, emails: [], notStarted: true },
    ],
    // Unsubscribed while waiting: no more emails.
    sandbox: { contact: { email: 'leaves@example.com' }, steps: [{ after: '1h', do: 'unsubscribe' }], emails: ['First nudge'] },
  },
  {
    name: 'a trigger that is not re-eligible',
    platform: 'If `false`, contacts will only ever enter this workflow once.',
    source: `${DESCRIPTION}, WorkflowReEligible`,
    workflow: workflow('Once', `${eventTrigger('once', 'hello')}${email('hello', 'hello', ['exit'])}${exit}`),
    subjects: { hello: 'Only once' },
    check: 'clean',
    runs: [{ contact: { email: 'once@example.com' }, emails: ['Only once'] }],
    sandbox: { contact: { email: 'twice@example.com' }, steps: [{ after: '1h', do: 'event' }], emails: ['Only once'] },
  },
  {
    name: 'a re-eligible trigger',
    platform: 'If `true`, the contacts will be able to enter this workflow every time the trigger is matched.',
    source: `${DESCRIPTION}, WorkflowReEligible`,
    workflow: workflow('Every time', `${eventTrigger('again', 'hello', true)}${email('hello', 'hello', ['exit'])}${exit}`),
    subjects: { hello: 'Again' },
    check: 'clean',
    runs: [{ contact: { email: 'once@example.com' }, emails: ['Again'] }],
    sandbox: { contact: { email: 'twice@example.com' }, steps: [{ after: '1h', do: 'event' }], emails: ['Again', 'Again'] },
  },
  {
    name: 'a pause holds contacts behind their email, and a resume sends it',
    platform:
      'When paused, email sending is stopped and contacts are queued behind their respective nodes as expected. All contacts that were scheduled to receive an email during the pause will receive it once you resume the Loop.',
    source: EXPERIMENTS,
    workflow: workflow('Paused', `${eventTrigger('pause', 'wait')}${timer('wait', 1, 'd', ['hello'])}${email('hello', 'hello', ['exit'])}${exit}`),
    subjects: { hello: 'After the pause' },
    check: 'clean',
    runs: [{ contact: { email: 'straight@example.com' }, emails: ['After the pause'] }],
    sandbox: {
      contact: { email: 'held@example.com' },
      steps: [
        { after: '1h', do: 'status', status: 'Paused' },
        { after: '3d', do: 'status', status: 'Sending' },
      ],
      emails: ['After the pause'],
    },
  },
  {
    name: 'a mailing-list change discards the queued contacts the new list excludes',
    platform: 'Retry with `queuedContactPolicy: "discard"` to apply the change and discard those contacts.',
    source: `${DESCRIPTION}, changeWorkflowMailingList`,
    workflow: workflow(
      'Newsletter nudges',
      `${eventTrigger('listed', 'first')}${email('first', 'first', ['wait'])}${timer('wait', 1, 'd', ['second'])}${email('second', 'second', ['exit'])}${exit}`,
      'mailingList: Product updates\n',
    ),
    subjects: { first: 'First', second: 'Second' },
    check: 'clean',
    runs: [{ contact: { email: 'reader@example.com' }, emails: ['First', 'Second'] }],
    sandbox: { contact: { email: 'moved@example.com' }, steps: [{ after: '1h', do: 'set-list', list: 'Beta testers' }], emails: ['First'] },
  },
  {
    name: 'a node deleted with its queued contacts discarded',
    platform: 'Retry with `queuedContactPolicy: "discard"` to delete the node and discard those queued contacts.',
    source: `${DESCRIPTION}, deleteWorkflowNode`,
    workflow: workflow(
      'Deleted wait',
      `${eventTrigger('deleted', 'first')}${email('first', 'first', ['wait'])}${timer('wait', 1, 'd', ['second'])}${email('second', 'second', ['exit'])}${exit}`,
    ),
    subjects: { first: 'First', second: 'Second' },
    check: 'clean',
    runs: [{ contact: { email: 'kept@example.com' }, emails: ['First', 'Second'] }],
    sandbox: { contact: { email: 'discarded@example.com' }, steps: [{ after: '1h', do: 'delete-node', type: 'TimerAction' }], emails: ['First'] },
  },
];
