/** What a theme brings to a plan: its create matched by name against the account's list. */
import type { ResourceKind } from '../change/request-calls.js';
import { themes } from './client.js';

export const THEMES: ResourceKind = { creates: { createTheme: themes } };
