/** The node types the API lets a caller create (triggers and exits cannot be): a constant, so `--help` needs no schemas. */
export const CREATABLE_NODE_TYPES = ['AudienceFilter', 'BranchNode', 'ExperimentBranchNode', 'TimerAction', 'SendEmailAction', 'VariantNode'] as const;

export type CreatableNodeType = (typeof CREATABLE_NODE_TYPES)[number];

/** What happens to contacts queued at nodes a change removes: `fail` reports them, `discard` drops them. */
export const QUEUED_CONTACT_POLICIES = ['fail', 'discard'] as const;
