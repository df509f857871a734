/** A campaign group as a resource of the API (operation-row.ts), described whole by its row (RecordResource). */
import { GROUP_FIELDS, GROUP_REFUSED_HINT } from '../groups/names.js';
import type { ResourceRow } from '../operation-row.js';

const EXAMPLE_ID = 'cwrn93d7b2d8z425hjhe3e17f';

export const CAMPAIGN_GROUP = {
  noun: 'campaign group',
  kind: { directory: 'groups/campaigns', half: 'audience' },
  list: { operation: 'listCampaignGroups', ids: 'campaign-groups', command: ['campaign-groups', 'list'] },
  get: 'getCampaignGroup',
  operations: {
    listCampaignGroups: { method: 'GET', path: '/v1/campaign-groups' },
    getCampaignGroup: { method: 'GET', path: '/v1/campaign-groups/{campaignGroupId}' },
    createCampaignGroup: { method: 'POST', path: '/v1/campaign-groups', writes: 'campaign group' },
    updateCampaignGroup: { method: 'POST', path: '/v1/campaign-groups/{campaignGroupId}', writes: 'campaign group' },
  },
  records: {
    area: {
      name: 'campaign-groups',
      summary: 'Campaign groups: list, get, create, update',
      examples: ['loopsctl campaign-groups list', `loopsctl campaign-groups update ${EXAMPLE_ID} --name Newsletters`],
      after: 'campaigns',
    },
    plural: 'campaign groups',
    needs: 'content',
    commands: {
      list: { summary: 'List campaign groups, most recently created first', examples: ['loopsctl campaign-groups list'] },
      get: { summary: 'Show one campaign group', examples: [`loopsctl campaign-groups get ${EXAMPLE_ID}`] },
      create: {
        summary: 'Create a campaign group',
        examples: ['loopsctl campaign-groups create --name "Webinars" --description "Invitations and follow-ups"'],
      },
      update: {
        summary: 'Rename a campaign group or change its description (the Unsorted group cannot be edited)',
        examples: [`loopsctl campaign-groups update ${EXAMPLE_ID} --name "Newsletters"`, `loopsctl campaign-groups update ${EXAMPLE_ID} --description ""`],
      },
    },
    fields: GROUP_FIELDS,
    refused: { 400: GROUP_REFUSED_HINT },
    load: async () => (await import('./records.js')).rules,
  },
} as const satisfies ResourceRow;
