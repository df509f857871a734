/** What a transactional group brings to a plan: its create matched by name against the account's list, its update put back by undo. */
import type { ResourceKind } from '../change/request-calls.js';
import { transactionalGroups } from './client.js';

export const TRANSACTIONAL_GROUPS: ResourceKind = { creates: { createTransactionalGroup: transactionalGroups }, inverts: ['updateTransactionalGroup'] };
