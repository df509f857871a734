/**
 * The lists of records an argument can name by id, by name, with the API path of each and the
 * command that lists them. An argument declares which list its ids come from
 * (ArgumentSpec.completes): shell completion offers them (with LOOPSCTL_COMPLETE_IDS=1), and on a
 * terminal, left out or with --pick, the picker offers them with that list command's columns.
 */
export const ID_LISTS = {
  'transactional-emails': '/v1/transactional-emails',
  'transactional-groups': '/v1/transactional-groups',
  'campaign-groups': '/v1/campaign-groups',
  campaigns: '/v1/campaigns',
  components: '/v1/components',
  segments: '/v1/audience-segments',
  workflows: '/v1/workflows',
  themes: '/v1/themes',
} as const;

export type IdList = keyof typeof ID_LISTS;

/** The command that lists each (its words), whose columns the picker shows. */
export const LIST_COMMANDS: Record<IdList, readonly string[]> = {
  'transactional-emails': ['transactional', 'list'],
  'transactional-groups': ['groups', 'list'],
  'campaign-groups': ['campaign-groups', 'list'],
  campaigns: ['campaigns', 'list'],
  components: ['components', 'list'],
  segments: ['segments', 'list'],
  workflows: ['workflow', 'list'],
  themes: ['themes', 'list'],
};
