/** The dedicated sending IPs operation of the API. */
import type { ApiClient } from '../../api/client.js';
import { DEDICATED_SENDING_IP } from '../../platform/ips/resource.js';
import { dedicatedSendingIps as schema } from '../../platform/ips/schemas.js';

export function dedicatedSendingIps(api: ApiClient) {
  return api.call({ method: 'GET', idempotent: true, path: DEDICATED_SENDING_IP.operations.listDedicatedSendingIps.path }, schema);
}
