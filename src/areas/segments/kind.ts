/** What a segment brings to a plan: its create matched by name against the account's list. */
import type { ResourceKind } from '../change/request-calls.js';
import { segments } from './client.js';

export const SEGMENTS: ResourceKind = { creates: { createAudienceSegment: segments } };
