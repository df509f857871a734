/**
 * Every kind of unit a plan file holds, and of before-image an apply keeps: a command's held
 * request (src/areas/change/request-calls.ts), and the records of a content tree (emails/kind.ts,
 * workflows/kind.ts). What `apply`, `undo` and the readers of a plan hand the change cycle.
 */
import { PlanKinds } from '../change/kinds.js';
import { ANSWER_IMAGES, REQUEST_KIND } from '../change/request-calls.js';
import { EMAIL_UNITS, RECORD_IMAGES } from './emails/kind.js';
import { WORKFLOW_IMAGES, WORKFLOW_UNITS } from './workflows/kind.js';

export const PLAN_KINDS = new PlanKinds([REQUEST_KIND, EMAIL_UNITS, WORKFLOW_UNITS], [ANSWER_IMAGES, RECORD_IMAGES, WORKFLOW_IMAGES]);
