/**
 * The registry of the change cycle: every kind of unit a plan file holds and of before-image an
 * apply keeps, and what each resource brings to its commands' held requests (the list a create is
 * matched against by name, the impact of its writes), one line each. What `apply`, `undo`, a write
 * command's `--plan`, `content push`, `content review` and `loopsctl mcp` hand the change cycle
 * (src/areas/change/, which imports no area).
 */

import { RECORD_ROWS } from '../platform/whole-rows.js';
import { CAMPAIGNS } from './campaigns/kind.js';
import { PlanKinds } from './change/kinds.js';
import { answerImages, requestKind } from './change/request-calls.js';
import { COMPONENTS } from './components/kind.js';
import { emailUnits, RECORD_IMAGES } from './content/emails/kind.js';
import { WORKFLOW_IMAGES, WORKFLOW_UNITS } from './content/workflows/kind.js';
import { recordKind } from './records/kind.js';
import { SEGMENTS } from './segments/kind.js';
import { themes } from './themes/client.js';
import { THEMES } from './themes/kind.js';
import { TRANSACTIONAL } from './transactional/kind.js';
import { WORKFLOWS } from './workflows/kind.js';

/** What each resource brings to a held request of its commands: a resource described whole by its row, what its row makes. */
const RESOURCES = [CAMPAIGNS, COMPONENTS, SEGMENTS, THEMES, TRANSACTIONAL, WORKFLOWS, ...RECORD_ROWS.map(recordKind)];

export const PLAN_KINDS = new PlanKinds(
  [requestKind(RESOURCES), emailUnits(RESOURCES), WORKFLOW_UNITS],
  [answerImages(RESOURCES), RECORD_IMAGES, WORKFLOW_IMAGES],
  // Every account has its default theme: what a plan that only creates notes of the account.
  themes,
);
