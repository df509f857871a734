/** The dedicated sending IPs. */
import { z } from '../../base/shapes.js';

export const dedicatedSendingIps = z.array(z.string());
