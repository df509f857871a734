/**
 * Every area of loopsctl, in the order `--help` lists them. Adding an area is a folder under
 * src/areas/ and one line here (and in directory.ts); a resource described whole by its row
 * (platform/operation-row.ts, RecordResource) needs neither: its declarations are made from the row.
 */
import type { Spec } from '../core/declare.js';
import { withRecordAreas } from '../platform/whole-rows.js';
import { spec as api } from './api/index.js';
import { spec as apply } from './apply/index.js';
import { spec as approve } from './approve/index.js';
import { spec as auth } from './auth/index.js';
import { spec as campaigns } from './campaigns/index.js';
import { spec as check } from './check/index.js';
import { spec as commands } from './commands/index.js';
import { spec as completion } from './completion/index.js';
import { spec as components } from './components/index.js';
import { spec as contactProperties } from './contact-properties/index.js';
import { spec as contacts } from './contacts/index.js';
import { spec as content } from './content/index.js';
import { spec as deliveries } from './deliveries/index.js';
import { spec as doctor } from './doctor/index.js';
import { spec as emailMessages } from './email-messages/index.js';
import { spec as eventPatterns } from './event-patterns/index.js';
import { spec as events } from './events/index.js';
import { spec as ips } from './ips/index.js';
import { spec as lists } from './lists/index.js';
import { spec as log } from './log/index.js';
import { spec as mcp } from './mcp/index.js';
import { spec as metrics } from './metrics/index.js';
import { spec as migrate } from './migrate/index.js';
import { spec as open } from './open/index.js';
import { recordSpec } from './records/index.js';
import { spec as sandbox } from './sandbox/index.js';
import { spec as segments } from './segments/index.js';
import { spec as skill } from './skill/index.js';
import { spec as themes } from './themes/index.js';
import { spec as transactional } from './transactional/index.js';
import { spec as types } from './types/index.js';
import { spec as undo } from './undo/index.js';
import { spec as uploads } from './uploads/index.js';
import { spec as webhooks } from './webhooks/index.js';
import { spec as workflows } from './workflows/index.js';

/** Every area's declarations; a resource described whole by its row (platform/operation-row.ts, RecordResource) is put in where its row says. */
export const specs: Spec[] = withRecordAreas(
  [
    transactional,
    emailMessages,
    uploads,
    campaigns,
    components,
    workflows,
    eventPatterns,
    themes,
    content,
    apply,
    undo,
    approve,
    check,
    migrate,
    types,
    segments,
    ips,
    contacts,
    contactProperties,
    lists,
    events,
    auth,
    open,
    api,
    webhooks,
    deliveries,
    metrics,
    mcp,
    log,
    skill,
    completion,
    commands,
    sandbox,
    doctor,
  ],
  (spec) => spec.name,
  recordSpec,
);
