/**
 * The kinds of record an account holds that loopsctl changes, each declared once by its noun: the
 * directory a content tree keeps it in, and the kinds of configuration write (configuration-writes.ts)
 * that change it. A workflow's node is a part of its workflow: a write of a node changes the
 * workflow, whose revision guards it and whose graph a before-image keeps.
 */
export const RECORD_KINDS = {
  'transactional email': { directory: 'transactional', writes: ['transactional email'] },
  campaign: { directory: 'campaigns', writes: ['campaign'] },
  component: { directory: 'components', writes: ['component'] },
  theme: { directory: 'themes', writes: ['theme'] },
  workflow: { directory: 'workflows', writes: ['workflow', 'workflow node'] },
  segment: { directory: 'segments', writes: ['segment'] },
  'transactional group': { directory: 'groups/transactional', writes: ['transactional group'] },
  'campaign group': { directory: 'groups/campaigns', writes: ['campaign group'] },
  'contact property': { directory: 'contact-properties', writes: ['contact property'] },
} as const satisfies Record<string, { directory: string; writes: readonly string[] }>;

export type RecordKind = keyof typeof RECORD_KINDS;

/** The kind of record a configuration write's kind changes (`workflow node`: a workflow), if loopsctl knows one. */
export function recordKindOfWrite(writeKind: string): RecordKind | undefined {
  return (Object.keys(RECORD_KINDS) as RecordKind[]).find((kind) => (RECORD_KINDS[kind].writes as readonly string[]).includes(writeKind));
}
