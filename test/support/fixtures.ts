/** Records shaped as the API reference documents them, for tests that need realistic answers. */
export const styles = {
  backgroundColor: '#f5f5f5',
  backgroundXPadding: 24,
  backgroundYPadding: 24,
  bodyColor: '#ffffff',
  bodyXPadding: 24,
  bodyYPadding: 24,
  bodyFontFamily: 'Helvetica',
  bodyFontCategory: 'sans-serif',
  borderColor: '#e5e5e5',
  borderWidth: 1,
  borderRadius: 8,
  buttonBodyColor: '#111827',
  buttonBodyXPadding: 16,
  buttonBodyYPadding: 12,
  buttonBorderColor: '#111827',
  buttonBorderWidth: 0,
  buttonBorderRadius: 6,
  buttonTextColor: '#ffffff',
  buttonTextFormat: 0,
  buttonTextFontSize: 16,
  dividerColor: '#e5e5e5',
  dividerBorderWidth: 1,
  textBaseColor: '#374151',
  textBaseFontSize: 16,
  textBaseLineHeight: 24,
  textBaseLetterSpacing: 0,
  textLinkColor: '#2563eb',
  heading1Color: '#111827',
  heading1FontSize: 28,
  heading1LineHeight: 36,
  heading1LetterSpacing: -0.5,
  heading2Color: '#111827',
  heading2FontSize: 22,
  heading2LineHeight: 30,
  heading2LetterSpacing: -0.25,
  heading3Color: '#111827',
  heading3FontSize: 18,
  heading3LineHeight: 26,
  heading3LetterSpacing: 0,
};

export function theme(index: number) {
  return {
    id: `theme_${index}`,
    name: `Theme ${index}`,
    styles,
    isDefault: index === 1,
    createdAt: '2025-06-29T07:47:39.370Z',
    updatedAt: '2025-06-29T07:47:39.370Z',
  };
}

export function group(index: number, name = `Group ${index}`) {
  return { id: `grp_${index}`, name, description: `About ${name}`, createdAt: '2025-06-29T07:47:39.370Z', updatedAt: '2025-06-30T12:00:00.000Z' };
}

export const transactionalEmail = {
  id: 'tx_welcome',
  name: 'Welcome',
  draftEmailMessageId: null,
  publishedEmailMessageId: 'em_pub_1',
  transactionalGroupId: 'grp_1',
  createdAt: '2025-06-29T07:47:39.370Z',
  updatedAt: '2025-06-29T07:47:39.370Z',
  dataVariables: ['confirmationUrl'],
};

export const draftRecord = {
  ...transactionalEmail,
  draftEmailMessageId: 'em_draft_1',
  draftEmailMessageContentRevisionId: 'rev_abc123',
};

export const segment = {
  id: 'seg_pro',
  name: 'Pro users',
  description: 'Contacts on the pro plan',
  createdAt: '2025-06-29T07:47:39.370Z',
  updatedAt: '2025-06-29T07:47:39.370Z',
  filter: { match: 'all', conditions: [{ type: 'property', key: 'plan', operator: 'equal', value: 'pro' }] },
};

export const workflow = {
  id: 'wf_welcome',
  name: 'Welcome series',
  status: 'Draft',
  mailingListId: 'list_1',
  rootNodeId: 'n_trigger',
  nodes: {
    n_trigger: { typeName: 'EventTrigger', nextNodeIds: ['n_wait'], eventName: 'signup', reEligible: false },
    n_wait: { typeName: 'TimerAction', nextNodeIds: ['n_branch'], amount: 2, unit: 'd' },
    n_branch: { typeName: 'BranchNode', nextNodeIds: ['n_email', 'n_exp'] },
    n_email: { typeName: 'SendEmailAction', nextNodeIds: ['n_exit'], emailMessageId: 'em_1', subject: 'Welcome aboard' },
    n_exp: { typeName: 'ExperimentBranchNode', nextNodeIds: ['n_control', 'n_variant'], samplingRate: 20 },
    n_control: { typeName: 'VariantNode', nextNodeIds: ['n_exit'], isControl: true },
    n_variant: { typeName: 'VariantNode', nextNodeIds: ['n_ghost'], isControl: false },
    n_exit: { typeName: 'ExitAction', nextNodeIds: [] },
    n_orphan: { typeName: 'HologramAction', nextNodeIds: [], beam: 'blue' },
  },
};

export const contactPropertyNode = {
  id: 'n_prop',
  workflowId: 'wf_welcome',
  typeName: 'ContactPropertyTrigger',
  nextNodeIds: ['n_wait'],
  contactPropertyQuery: { key: 'planName', was: { value: '', operator: 'any' }, is: { value: 'pro', operator: 'equal' } },
  reEligible: true,
  workflowRevisionId: 'wrev_1',
};

export const eventTriggerNode = {
  id: 'n_trigger',
  workflowId: 'wf_welcome',
  typeName: 'EventTrigger',
  nextNodeIds: ['n_wait'],
  eventName: 'signup',
  eventProperties: [
    { name: 'plan', type: 'string' },
    { name: 'seats', type: 'number' },
  ],
  reEligible: false,
};

export function envelope<T>(data: T[], nextCursor: string | null = null, perPage = 20, totalResults = data.length) {
  return {
    pagination: {
      totalResults,
      returnedResults: data.length,
      perPage,
      totalPages: Math.max(1, Math.ceil(totalResults / perPage)),
      nextCursor,
      nextPage: nextCursor && `https://example.invalid/?cursor=${nextCursor}`,
    },
    data,
  };
}

export const metrics = { sends: 10, deliveries: 9, spamReports: 0, hardBounces: 1, softBounces: 0 };
