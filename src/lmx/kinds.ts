/** The kinds of LMX there are: an email of each kind, and a component, which any email may embed. A constant module: declarations read it. */
export const LMX_KINDS = ['transactional', 'campaign', 'workflow', 'component'] as const;
export type LmxKind = (typeof LMX_KINDS)[number];
