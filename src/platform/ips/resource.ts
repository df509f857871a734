/** The dedicated sending IPs as a resource of the API (operation-row.ts): a list of addresses, read whole. */
import type { ResourceRow } from '../operation-row.js';

export const DEDICATED_SENDING_IP = {
  noun: 'dedicated sending IP',
  operations: {
    listDedicatedSendingIps: { method: 'GET', path: '/v1/dedicated-sending-ips' },
  },
} as const satisfies ResourceRow;
