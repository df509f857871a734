/**
 * The lists whose ids shell completion can offer (with LOOPSCTL_COMPLETE_IDS=1), by name, with the
 * API path of each. An argument declares which list its ids come from (ArgumentSpec.completes).
 */
export const ID_LISTS = {
  'transactional-emails': '/v1/transactional-emails',
  'transactional-groups': '/v1/transactional-groups',
  'campaign-groups': '/v1/campaign-groups',
  workflows: '/v1/workflows',
  themes: '/v1/themes',
} as const;

export type IdList = keyof typeof ID_LISTS;
