/** The dedicated sending IPs. */
import { z } from '../../api/schemas.js';

export const dedicatedSendingIps = z.array(z.string());
