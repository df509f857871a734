import { describe, expect, it } from 'vitest';
import type { Account, CheckedMessage } from '../../../../src/areas/check/gather.js';
import { LINK_RULES } from '../../../../src/areas/check/links/rules.js';
import { ALL_RULES, findProblems } from '../../../../src/areas/check/rules/index.js';
import { NO_RULES, type RulesFile } from '../../../../src/areas/check/rules-file.js';
import { QA_RULES } from '../../../../src/lmx/qa/index.js';
import { RESERVED_PROPERTY_NAMES } from '../../../../src/platform/contact-properties/typing.js';
import type { EmailMessage } from '../../../../src/platform/email-messages/schemas.js';
import { ONLY_AT_START, START_RULES, workflowProblems } from '../../../../src/platform/workflows/rules.js';

const TIME = '2025-01-01T00:00:00.000Z';

function message(id: string, lmx: string, fields: Partial<EmailMessage> = {}): EmailMessage {
  return {
    id,
    subject: 'A subject of a fair length',
    previewText: 'What the email is about',
    fromName: 'Acme',
    fromEmail: 'hello',
    replyToEmail: '',
    emailFormat: 'styled',
    languageCode: 'en',
    lmx,
    contentRevisionId: `${id}-revision`,
    updatedAt: TIME,
    ...fields,
  };
}

const RESET = message('m-reset', '<Paragraph>Hi {data.firstName}</Paragraph>\n<Button href="{data.resetUrl}">Reset</Button>\n', {
  dataVariablesFallbacks: { firstName: 'there' },
});
const LAUNCH = message(
  'm-launch',
  [
    '<Style themeId="t-used" />',
    '<H1>We launched</H1>',
    '<Image src="https://acme.example/launch.png" alt="The new dashboard" />',
    '<Paragraph>Read <Link href="https://acme.example/blog">the post</Link> about what changed, or <Link href="mailto:hi@acme.example">write to us</Link>.</Paragraph>',
    '<Component componentId="c-footer" />',
    '',
  ].join('\n'),
);
const WELCOME = message('m-welcome', '<Paragraph>Welcome!</Paragraph>\n<Button href="https://app.acme.example">Open Acme</Button>\n');

/** An account with nothing wrong in it: every rule is tested by breaking one thing of it. */
function cleanAccount(): Account {
  const reset = { kind: 'transactional', name: 'Password reset', id: 't-reset' } as const;
  const launch = { kind: 'campaign', name: 'Launch', id: 'c-launch' } as const;
  const welcome = { kind: 'workflow', name: 'Welcome series', id: 'w-welcome' } as const;
  const checked = (record: CheckedMessage['record'], role: string, lmxKind: CheckedMessage['lmxKind'], email: EmailMessage): CheckedMessage => ({
    record,
    role,
    lmxKind,
    message: structuredClone(email),
    guardian: { errors: [], warnings: [] },
    draft: false,
  });
  return {
    listed: new Set([
      'transactional emails',
      'campaigns',
      'workflows',
      'components',
      'themes',
      'event patterns',
      'contact properties',
      'mailing lists',
      'segments',
    ]),
    transactional: [
      {
        ref: reset,
        record: {
          id: 't-reset',
          name: 'Password reset',
          draftEmailMessageId: null,
          publishedEmailMessageId: 'm-reset',
          createdAt: TIME,
          updatedAt: TIME,
          dataVariables: ['firstName', 'resetUrl'],
        },
        published: structuredClone(RESET),
      },
    ],
    campaigns: [
      {
        ref: launch,
        record: {
          id: 'c-launch',
          name: 'Launch',
          status: 'Scheduled',
          createdAt: TIME,
          updatedAt: TIME,
          emailMessageId: 'm-launch',
          campaignGroupId: null,
          mailingListId: 'l-news',
          audienceSegmentId: null,
          audienceFilter: { match: 'all', conditions: [{ type: 'property', key: 'plan', operator: 'equals', value: 'pro' }] },
          scheduling: { method: 'schedule', timestamp: TIME },
        },
        email: structuredClone(LAUNCH),
      },
    ],
    workflows: [
      {
        ref: welcome,
        record: {
          id: 'w-welcome',
          status: 'Sending',
          name: 'Welcome series',
          mailingListId: 'l-news',
          rootNodeId: 'trigger',
          nodes: {
            trigger: { typeName: 'EventTrigger', nextNodeIds: ['filter'], eventName: 'signup', reEligible: false },
            filter: { typeName: 'AudienceFilter', nextNodeIds: ['send'] },
            send: { typeName: 'SendEmailAction', nextNodeIds: [], emailMessageId: 'm-welcome', subject: 'Welcome' },
          },
        },
        filters: [{ nodeId: 'filter', filter: { match: 'all', conditions: [{ type: 'property', key: 'seats', operator: 'greaterThan', value: 1 }] } }],
      },
    ],
    components: [{ id: 'c-footer', name: 'Footer', lmx: '<Paragraph>Acme, 1 Main Street</Paragraph>\n' }],
    themes: [
      { id: 't-default', name: 'Default', styles: {}, isDefault: true, createdAt: TIME, updatedAt: TIME },
      { id: 't-used', name: 'Launch theme', styles: {}, isDefault: false, createdAt: TIME, updatedAt: TIME },
    ],
    eventPatterns: [{ id: 'e-signup', eventName: 'signup', incomingWebhookPlatform: null }],
    contactProperties: [
      { key: 'firstName', label: 'First Name', type: 'string' },
      { key: 'plan', label: 'Plan', type: 'string' },
      { key: 'seats', label: 'Seats', type: 'number' },
    ],
    mailingLists: [{ id: 'l-news', name: 'Newsletter', description: null, isPublic: true }],
    segments: [
      {
        id: 's-pro',
        name: 'Pro',
        description: null,
        createdAt: TIME,
        updatedAt: TIME,
        filter: { match: 'all', conditions: [{ type: 'property', key: 'plan', operator: 'equals', value: 'pro' }] },
      },
    ],
    allMessages: [structuredClone(RESET), structuredClone(LAUNCH), structuredClone(WELCOME)],
    messages: [
      checked(reset, 'published', 'transactional', RESET),
      checked(launch, 'campaign', 'campaign', LAUNCH),
      checked(welcome, '"Welcome"', 'workflow', WELCOME),
    ],
    unchecked: [],
    metrics: [
      {
        record: reset,
        which: 'the published email',
        key: 'transactional/t-reset',
        counters: { sends: 1000, hardBounces: 5, softBounces: 5, spamReports: 1, opens: 500, unsubscribes: 2 },
      },
    ],
    code: {
      filesScanned: 1,
      filesPassed: 0,
      skipped: [],
      uses: [
        { kind: 'transactional', value: 't-reset', ...IN_APP, dataVariables: ['resetUrl', 'firstName'] },
        { kind: 'transactional', value: 't-reset', ...IN_APP },
        { kind: 'event', value: 'signup', ...IN_APP },
        { kind: 'list', value: 'l-news', ...IN_APP },
        { kind: 'property', value: 'plan', ...IN_APP },
      ],
    },
  };
}

const IN_APP = { file: 'src/app.ts', line: 3, column: 7 };

const rulesOf = (account: Account, expected: RulesFile = NO_RULES) => findProblems(account, expected, undefined).map((problem) => problem.rule);

/** The checked message of a kind, changed: its LMX, or any field. */
function changeMessage(account: Account, index: number, change: Partial<EmailMessage>): void {
  Object.assign(account.messages[index]!.message, change);
}
const LAUNCH_INDEX = 1;

/** Each rule, and a change of the clean account that breaks it. */
const BREAKS: [rule: string, breaks: (account: Account, expected: RulesFile) => void][] = [
  [
    'guardian-error',
    (a) => a.messages[0]!.guardian!.errors.push({ rule: 'missingButtonHrefs', title: 'Missing button link', description: 'x', items: [{ label: 'Reset' }] }),
  ],
  ['guardian-warning', (a) => a.messages[0]!.guardian!.warnings.push({ rule: 'missingFallback', title: 'No fallback', description: 'x', items: [] })],
  ['lmx-error', (a) => changeMessage(a, 0, { lmx: '<Paragraph>Hi <Unknown /></Paragraph>\n' })],
  ['lmx-warning', (a) => changeMessage(a, 0, { lmx: '<Paragraph colour="red">Hi</Paragraph>\n' })],
  ['unpublished-changes', (a) => (a.transactional[0]!.draft = { ...structuredClone(RESET), id: 'm-draft', subject: 'Reset it' })],
  ['empty-link', (a) => changeMessage(a, LAUNCH_INDEX, { lmx: LAUNCH.lmx.replace('https://acme.example/blog', '') })],
  ['insecure-link', (a) => changeMessage(a, LAUNCH_INDEX, { lmx: LAUNCH.lmx.replace('https://acme.example/blog', 'http://acme.example/blog') })],
  ['insecure-image', (a) => changeMessage(a, LAUNCH_INDEX, { lmx: LAUNCH.lmx.replace('https://acme.example/launch.png', 'http://acme.example/launch.png') })],
  ['image-without-alt', (a) => changeMessage(a, LAUNCH_INDEX, { lmx: LAUNCH.lmx.replace(' alt="The new dashboard"', '') })],
  [
    'low-contrast',
    (a) => changeMessage(a, LAUNCH_INDEX, { lmx: LAUNCH.lmx.replace('<Style themeId="t-used" />', '<Style themeId="t-used" textBaseColor="#aaaaaa" />') }),
  ],
  ['heading-order', (a) => changeMessage(a, LAUNCH_INDEX, { lmx: LAUNCH.lmx.replace('<H1>We launched</H1>', '<H1>We launched</H1>\n<H3>What changed</H3>') })],
  ['vague-link-text', (a) => changeMessage(a, LAUNCH_INDEX, { lmx: LAUNCH.lmx.replace('>the post<', '>click here<') })],
  [
    'small-text',
    (a) => changeMessage(a, 2, { lmx: '<Paragraph>Welcome!</Paragraph>\n<Button href="https://app.acme.example" fontSize="10">Open Acme</Button>\n' }),
  ],
  [
    'image-linked-empty-alt',
    (a) => changeMessage(a, LAUNCH_INDEX, { lmx: LAUNCH.lmx.replace('alt="The new dashboard"', 'alt="" href="https://acme.example"') }),
  ],
  ['link-without-text', (a) => changeMessage(a, LAUNCH_INDEX, { lmx: LAUNCH.lmx.replace('>the post<', '><') })],
  ['heading-one-h1', (a) => changeMessage(a, LAUNCH_INDEX, { lmx: LAUNCH.lmx.replace('<H1>We launched</H1>', '<H2>We launched</H2>') })],
  ['language-code-missing', (a) => changeMessage(a, LAUNCH_INDEX, { languageCode: undefined })],
  [
    'language-mismatch',
    (a) =>
      changeMessage(a, 2, {
        languageCode: 'de',
        lmx: '<Paragraph>Welcome to Acme. Your workspace is ready, and your first project is waiting for you to open it.</Paragraph>\n',
      }),
  ],
  ['image-alt-unhelpful', (a) => changeMessage(a, LAUNCH_INDEX, { lmx: LAUNCH.lmx.replace('The new dashboard', 'launch.png') })],
  ['spam-subject-capitals', (a) => changeMessage(a, LAUNCH_INDEX, { subject: 'WE LAUNCHED THE DASHBOARD' })],
  ['spam-punctuation', (a) => changeMessage(a, LAUNCH_INDEX, { subject: 'We launched!!!' })],
  ['spam-url-shortener', (a) => changeMessage(a, LAUNCH_INDEX, { lmx: LAUNCH.lmx.replace('https://acme.example/blog', 'https://bit.ly/3xYz') })],
  ['spam-image-only', (a) => changeMessage(a, LAUNCH_INDEX, { lmx: '<Image src="https://acme.example/launch.png" alt="The new dashboard" />\n' })],
  [
    'spam-mostly-images',
    (a) => changeMessage(a, LAUNCH_INDEX, { lmx: LAUNCH.lmx.replace('<H1>', '<Image src="https://acme.example/more.png" alt="More of it" />\n<H1>') }),
  ],
  ['spam-text-part-short', (a) => changeMessage(a, 2, { lmx: `${'<Divider />\n'.repeat(80)}<Paragraph>Welcome!</Paragraph>\n` })],
  ['spam-trigger-phrase', (a) => changeMessage(a, 2, { lmx: '<Paragraph>Welcome! Act now: it is 100% free.</Paragraph>\n' })],
  ['spam-score', (a) => changeMessage(a, 2, { subject: 'ACT NOW!!! 100% FREE', lmx: '<Paragraph>Act now, it is 100% free and risk-free.</Paragraph>\n' })],
  ['button-without-link', (a) => changeMessage(a, 2, { lmx: '<Button>Open Acme</Button>\n' })],
  ['email-too-large', (a) => changeMessage(a, 2, { lmx: `${'<Paragraph>A long paragraph of words to read.</Paragraph>\n'.repeat(1500)}` })],
  ['preview-text-missing', (a) => changeMessage(a, 0, { previewText: ' ' })],
  ['preview-text-too-long', (a) => changeMessage(a, 0, { previewText: 'x'.repeat(151) })],
  ['subject-too-long', (a) => changeMessage(a, 0, { subject: 'y'.repeat(79) })],
  ['workflow-not-sending', (a) => (a.workflows[0]!.record.status = 'Paused')],
  ['event-trigger-without-event', (a) => ((a.workflows[0]!.record.nodes.trigger as { eventName?: string | null }).eventName = null)],
  [
    'property-trigger-without-property',
    (a) => (a.workflows[0]!.record.nodes.trigger = { typeName: 'ContactPropertyTrigger', nextNodeIds: ['filter'], contactPropertyQuery: null }),
  ],
  [
    'branch-path-without-filter',
    (a) => {
      const nodes = a.workflows[0]!.record.nodes;
      nodes.trigger = { ...nodes.trigger!, nextNodeIds: ['branch'] };
      nodes.branch = { typeName: 'BranchNode', nextNodeIds: ['filter', 'send'] };
    },
  ],
  [
    'experiment-without-path',
    (a) => {
      const nodes = a.workflows[0]!.record.nodes;
      nodes.filter = { ...nodes.filter!, nextNodeIds: ['experiment'] };
      nodes.experiment = { typeName: 'ExperimentBranchNode', nextNodeIds: [], samplingRate: 50 };
    },
  ],
  [
    'experiment-path-without-email',
    (a) => {
      const nodes = a.workflows[0]!.record.nodes;
      nodes.filter = { ...nodes.filter!, nextNodeIds: ['experiment'] };
      nodes.experiment = { typeName: 'ExperimentBranchNode', nextNodeIds: ['variant'], samplingRate: 50 };
      nodes.variant = { typeName: 'VariantNode', nextNodeIds: [], isControl: false };
    },
  ],
  ['event-without-pattern', (a) => (a.eventPatterns = [])],
  ['unknown-contact-property', (a) => (a.segments[0]!.filter!.conditions[0]!.key = 'plna')],
  ['unknown-mailing-list', (a) => (a.campaigns[0]!.record.mailingListId = 'l-gone')],
  ['scheduled-campaign-empty', (a) => (a.campaigns[0]!.email = undefined)],
  ['unused-mailing-list', (a) => a.mailingLists.push({ id: 'l-old', name: 'Old', description: null, isPublic: false })],
  ['unused-component', (a) => a.components.push({ id: 'c-old', name: 'Old header', lmx: '<Paragraph>Old</Paragraph>\n' })],
  ['unused-theme', (a) => a.themes.push({ id: 't-old', name: 'Old', styles: {}, isDefault: false, createdAt: TIME, updatedAt: TIME })],
  ['code-unknown-transactional', (a) => a.code!.uses.push({ kind: 'transactional', value: 't-gone', ...IN_APP })],
  ['code-unpublished-transactional', (a) => (a.transactional[0]!.record.publishedEmailMessageId = null)],
  ['code-missing-data-variable', (a) => (a.code!.uses[0]!.dataVariables = ['firstName'])],
  ['code-unknown-data-variable', (a) => a.code!.uses[0]!.dataVariables!.push('expiresIn')],
  ['code-unknown-event', (a) => a.code!.uses.push({ kind: 'event', value: 'signed_up', ...IN_APP })],
  ['code-unknown-mailing-list', (a) => a.code!.uses.push({ kind: 'list', value: 'l-gone', ...IN_APP })],
  ['code-unknown-contact-property', (a) => a.code!.uses.push({ kind: 'property', value: 'compnay', ...IN_APP })],
  ['code-skipped', (a) => a.code!.skipped.push({ path: 'src/generated.js', reason: 'over 2 MB' })],
  ['bounce-rate', (_a, e) => (e.thresholds.bounceRate = 0.005)],
  ['complaint-rate', (_a, e) => (e.thresholds.complaintRate = 0.0005)],
  ['unsubscribe-rate', (_a, e) => (e.thresholds.unsubscribeRate = 0.001)],
  ['open-rate', (_a, e) => (e.thresholds.openRate = 0.6)],
  ['expected-record-missing', (_a, e) => (e.workflows.Onboarding = { status: 'sending' })],
  ['expected-workflow-status', (_a, e) => (e.workflows['Welcome series'] = { status: 'draft' })],
  ['expected-published', (_a, e) => (e.transactional['Password reset'] = { published: false })],
  ['expected-data-variables', (_a, e) => (e.transactional['Password reset'] = { dataVariables: ['firstName', 'resetUrl', 'expiresIn'] })],
];

describe('check rules', () => {
  it('find nothing in a clean account', () => {
    expect(findProblems(cleanAccount(), NO_RULES, undefined)).toEqual([]);
  });

  it('every rule has a case here', () => {
    // The network rules are found against fixture servers: test/e2e/areas/check/links.test.ts; the
    // rules of HTML alone in captured HTML: test/e2e/areas/content/check-html.test.ts.
    const htmlOnly = new Set(Object.entries(QA_RULES).flatMap(([name, spec]) => ('html' in spec ? [name] : [])));
    const offline = ALL_RULES.filter((rule) => !Object.hasOwn(LINK_RULES, rule.name) && !htmlOnly.has(rule.name));
    expect(BREAKS.map(([rule]) => rule).sort()).toEqual(offline.map((rule) => rule.name).sort());
  });

  it("a spam total at the rules file's spamScore is an error; under it, nothing", () => {
    const account = cleanAccount();
    changeMessage(account, 2, { subject: 'WELCOME TO ACME!!!' });
    const spamScore = (score: number) =>
      findProblems(account, { ...structuredClone(NO_RULES), spamScore: score }, undefined).find((found) => found.rule === 'spam-score');
    expect(spamScore(3)?.severity).toBe('error');
    expect(spamScore(3)?.message).toContain('spam-subject-capitals 1.5, spam-punctuation 1.5');
    expect(spamScore(3.5)).toBeUndefined();
  });

  it('the allow-list lets a rule pass in one record, or for one address', () => {
    const account = cleanAccount();
    const link = (address: string) => ({
      ...account.messages[1]!.record,
      rule: 'link-broken',
      severity: 'error' as const,
      message: 'x',
      fix: 'y',
      link: address,
    });
    const { kind, name, id } = account.messages[1]!.record;
    account.network = [link('https://partner.example/members'), link('https://acme.example/gone')];
    const allowed = (allow: RulesFile['allow']) =>
      findProblems(account, { ...structuredClone(NO_RULES), allow }, undefined)
        .filter((found) => found.rule === 'link-broken')
        .map((found) => found.link);
    expect(allowed([{ rule: 'link-broken', link: 'https://partner.example/*' }])).toEqual(['https://acme.example/gone']);
    expect(allowed([{ rule: 'link-broken', record: `${kind}/${name}` }])).toEqual([]);
    expect(allowed([{ rule: 'link-broken', record: 'campaign/Another' }])).toHaveLength(2);
    expect(allowed([{ rule: 'link-timeout', link: 'https://acme.example/gone' }])).toHaveLength(2);
    expect(id).toBe('c-launch');
  });

  it.each(BREAKS)('%s: found once its record breaks it', (rule, breaks) => {
    const account = cleanAccount();
    const expected = structuredClone(NO_RULES);
    breaks(account, expected);
    expect(rulesOf(account, expected)).toContain(rule);
  });

  it('an unknown contact property is an error, as the API refuses the call (400), and one a few letters from a property the account has is named as such', () => {
    const account = cleanAccount();
    const known = account.contactProperties[0]!.key;
    account.code!.uses.push({ kind: 'property', value: `${known}x`, ...IN_APP }, { kind: 'property', value: 'favouriteColour', ...IN_APP });
    const found = findProblems(account, NO_RULES, undefined).filter((problem) => problem.rule === 'code-unknown-contact-property');
    expect(found.map(({ severity, message, fix }) => ({ severity, message, fix })).sort((a, b) => (a.message < b.message ? 1 : -1))).toEqual([
      {
        severity: 'error',
        message: expect.stringContaining(`"${known}x", which the account does not have: the API refuses the call (400)`),
        fix: `did you mean \`${known}\`?`,
      },
      {
        severity: 'error',
        message: expect.stringContaining('"favouriteColour"'),
        fix: 'create it (`loopsctl contact-properties create favouriteColour --type <type>`)',
      },
    ]);
  });

  it('expectations that the account meets find nothing', () => {
    const expected: RulesFile = {
      ...structuredClone(NO_RULES),
      workflows: { 'Welcome series': { status: 'sending' } },
      transactional: { 'Password reset': { published: true, dataVariables: ['resetUrl', 'firstName'] } },
    };
    expect(rulesOf(cleanAccount(), expected)).toEqual([]);
  });

  it('thresholds the emails meet find nothing', () => {
    const expected: RulesFile = { ...structuredClone(NO_RULES), thresholds: { bounceRate: 0.01, complaintRate: 0.001, unsubscribeRate: 0.002, openRate: 0.5 } };
    expect(rulesOf(cleanAccount(), expected)).toEqual([]);
  });

  it('a workflow the rules file expects as a draft is not reported as not sending', () => {
    const account = cleanAccount();
    account.workflows[0]!.record.status = 'Draft';
    const expected: RulesFile = { ...structuredClone(NO_RULES), workflows: { 'Welcome series': { status: 'draft' } } };
    expect(rulesOf(account, expected)).toEqual([]);
  });

  it('the rules file changes severities, turns rules off and ignores records; --only keeps families', () => {
    const account = cleanAccount();
    changeMessage(account, LAUNCH_INDEX, { lmx: LAUNCH.lmx.replace('https://acme.example/blog', 'http://acme.example/blog') });
    account.workflows[0]!.record.status = 'Paused';
    const raised = findProblems(account, { ...structuredClone(NO_RULES), rules: { 'insecure-link': 'error' } }, undefined);
    expect(raised.map((problem) => [problem.rule, problem.severity])).toEqual([
      ['insecure-link', 'error'],
      ['workflow-not-sending', 'warning'],
    ]);
    expect(rulesOf(account, { ...structuredClone(NO_RULES), rules: { 'insecure-link': 'off' } })).toEqual(['workflow-not-sending']);
    expect(rulesOf(account, { ...structuredClone(NO_RULES), ignore: ['workflow/Welcome series'] })).toEqual(['insecure-link']);
    expect(findProblems(account, NO_RULES, new Set(['wiring'])).map((problem) => problem.rule)).toEqual(['workflow-not-sending']);
  });

  it("gives each of the platform's start rules, in each status, the one verdict `content check` gives the workflow's file", () => {
    const send = { type: 'SendEmailAction', next: [] };
    const started = (next: string[]) => ({ type: 'EventTrigger', next, eventName: 'signup', reEligible: false });
    // One workflow per start rule of the rule book (platform/workflows/rules.ts), breaking it alone. The
    // platform's word on them: "a workflow cannot be started unless each direct `BranchNode` child is an
    // `AudienceFilter`" (the API description, CreateWorkflowNodeBetweenRequest), and "you must add at least
    // one email within each control or variant branch before starting" (the docs' experiments page).
    const BROKEN: Record<string, Record<string, { type: string; next: string[] } & Record<string, unknown>>> = {
      'trigger-event': { trigger: { type: 'EventTrigger', next: ['send'], eventName: null, reEligible: false }, send },
      'trigger-property': { trigger: { type: 'ContactPropertyTrigger', next: ['send'], contactPropertyQuery: null }, send },
      'branch-children': { trigger: started(['branch']), branch: { type: 'BranchNode', next: ['send'] }, send },
      'experiment-paths': { trigger: started(['experiment']), experiment: { type: 'ExperimentBranchNode', next: [], samplingRate: 50 } },
      'experiment-email': {
        trigger: started(['experiment']),
        experiment: { type: 'ExperimentBranchNode', next: ['variant'], samplingRate: 50 },
        variant: { type: 'VariantNode', next: [], isControl: false },
      },
    };
    const checkRules = new Set<string>();
    for (const [rule, nodes] of Object.entries(BROKEN)) {
      for (const [status, severity] of [
        ['Sending', 'error'],
        ['Draft', 'warning'],
        ['Paused', 'warning'],
      ] as const) {
        const inFile = workflowProblems({ name: 'Welcome series', status, root: 'trigger', nodes })
          .filter((problem) => problem.message.endsWith(ONLY_AT_START))
          .map(({ rule, key, message, severity }) => ({ rule, key, message, severity }));
        const account = cleanAccount();
        account.workflows[0]!.record.status = status;
        account.workflows[0]!.record.nodes = Object.fromEntries(
          Object.entries(nodes).map(([id, { type, next, ...fields }]) => [id, { typeName: type, nextNodeIds: next, ...fields }]),
        );
        const inAccount = findProblems(account, NO_RULES, new Set(['wiring'])).filter((problem) => problem.message.endsWith(ONLY_AT_START));
        for (const problem of inAccount) checkRules.add(problem.rule);
        expect(inFile).toEqual([expect.objectContaining({ rule, severity })]);
        expect(
          inAccount.map((problem) => ({
            key: /^node (\S+): /.exec(problem.message)?.[1],
            message: problem.message.replace(/^node \S+: /, ''),
            severity: problem.severity,
          })),
        ).toEqual(inFile.map(({ key, message, severity }) => ({ key, message, severity })));
      }
    }
    expect(Object.keys(BROKEN)).toEqual([...START_RULES]);
    // Each start rule has a name of its own in check's report, declared among its rules.
    expect(checkRules.size).toBe(Object.keys(BROKEN).length);
    for (const name of checkRules) expect(ALL_RULES.map((declared) => declared.name)).toContain(name);
  });

  it("takes a filter naming one of the platform's own fields, the names no custom property may have, for a known key", () => {
    for (const key of RESERVED_PROPERTY_NAMES) {
      const account = cleanAccount();
      account.segments[0]!.filter!.conditions[0]!.key = key;
      expect(findProblems(account, NO_RULES, new Set(['wiring'])).filter((problem) => problem.rule === 'unknown-contact-property')).toEqual([]);
    }
  });

  it('a listing that could not be read makes no rule compare with it', () => {
    const account = cleanAccount();
    account.contactProperties = [];
    account.mailingLists = [];
    account.listed = new Set([...account.listed].filter((name) => name !== 'contact properties' && name !== 'mailing lists'));
    account.unchecked.push({ what: 'every one of the contact properties', reason: 'server error' });
    expect(rulesOf(account)).toEqual([]);
  });

  it('a link or image whose address a variable makes is not judged', () => {
    const account = cleanAccount();
    changeMessage(account, LAUNCH_INDEX, { lmx: LAUNCH.lmx.replace('https://acme.example/blog', '{contact.homepage}') });
    expect(rulesOf(account).filter((rule) => rule.startsWith('insecure') || rule === 'empty-link')).toEqual([]);
  });
});
