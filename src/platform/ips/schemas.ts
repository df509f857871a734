/** The dedicated sending IPs. */
import { z } from '../schemas.js';

export const dedicatedSendingIps = z.array(z.string());
