/** What a component brings to a plan: its create matched by name against the account's list. */
import type { ResourceKind } from '../change/request-calls.js';
import { components } from './client.js';

export const COMPONENTS: ResourceKind = { creates: { createComponent: components } };
