/** The sandbox's dedicated sending IPs. */

import { dedicatedSendingIps } from '../../platform/ips/schemas.js';
import { answer, type SandboxModule, slice } from '../module.js';

/** Addresses from the ranges set aside for documentation, so no real host is ever named. */
const seedIps = ['198.51.100.24', '198.51.100.25', '203.0.113.71', '203.0.113.72', '2001:db8:4f1::24', '2001:db8:4f1::25'];

export const sendingIps = slice('sendingIps', dedicatedSendingIps, () => seedIps);

export const sandbox: SandboxModule = {
  slices: [sendingIps],
  routes: [{ operation: 'listDedicatedSendingIps', run: ({ state }) => answer(dedicatedSendingIps, sendingIps.of(state)) }],
};
