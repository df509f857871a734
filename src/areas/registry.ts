/**
 * Every area of loopsctl, in the order `--help` lists them. Adding an area is a folder under
 * src/areas/ and one line here.
 */
import type { Spec } from '../core/declare.js';
import type { Area } from './area.js';
import { area as api } from './api/index.js';
import { area as auth } from './auth/index.js';
import { area as campaignGroups } from './campaign-groups/index.js';
import { area as campaigns } from './campaigns/index.js';
import { area as commands } from './commands/index.js';
import { area as completion } from './completion/index.js';
import { area as contactProperties } from './contact-properties/index.js';
import { area as contacts } from './contacts/index.js';
import { area as events } from './events/index.js';
import { area as emailMessages } from './email-messages/index.js';
import { area as components } from './components/index.js';
import { area as eventPatterns } from './event-patterns/index.js';
import { area as groups } from './groups/index.js';
import { area as ips } from './ips/index.js';
import { area as lists } from './lists/index.js';
import { area as mcp } from './mcp/index.js';
import { area as sandbox } from './sandbox/index.js';
import { area as segments } from './segments/index.js';
import { area as skill } from './skill/index.js';
import { area as themes } from './themes/index.js';
import { area as uploads } from './uploads/index.js';
import { area as transactional } from './transactional/index.js';
import { area as webhooks } from './webhooks/index.js';
import { area as workflows } from './workflows/index.js';

export const areas: Area[] = [
  transactional,
  emailMessages,
  uploads,
  groups,
  campaigns,
  campaignGroups,
  components,
  workflows,
  eventPatterns,
  themes,
  segments,
  ips,
  contacts,
  contactProperties,
  lists,
  events,
  auth,
  api,
  webhooks,
  mcp,
  skill,
  completion,
  commands,
  sandbox,
];

export const specs: Spec[] = areas.map((area) => area.spec);
