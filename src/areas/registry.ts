/**
 * Every area of loopsctl, in the order `--help` lists them. Adding an area is a folder under
 * src/areas/ and one line here.
 */
import { PLAN_OPTION, type Spec } from '../core/declare.js';
import { spec as api } from './api/index.js';
import { spec as apply } from './apply/index.js';
import { spec as approve } from './approve/index.js';
import { spec as auth } from './auth/index.js';
import { spec as campaignGroups } from './campaign-groups/index.js';
import { spec as campaigns } from './campaigns/index.js';
import { spec as check } from './check/index.js';
import { spec as commands } from './commands/index.js';
import { spec as completion } from './completion/index.js';
import { spec as contactProperties } from './contact-properties/index.js';
import { spec as contacts } from './contacts/index.js';
import { spec as events } from './events/index.js';
import { spec as emailMessages } from './email-messages/index.js';
import { spec as components } from './components/index.js';
import { spec as content } from './content/index.js';
import { spec as eventPatterns } from './event-patterns/index.js';
import { spec as groups } from './groups/index.js';
import { spec as ips } from './ips/index.js';
import { spec as doctor } from './doctor/index.js';
import { spec as lists } from './lists/index.js';
import { spec as log } from './log/index.js';
import { spec as undo } from './undo/index.js';
import { spec as mcp } from './mcp/index.js';
import { spec as migrate } from './migrate/index.js';
import { spec as open } from './open/index.js';
import { spec as sandbox } from './sandbox/index.js';
import { spec as segments } from './segments/index.js';
import { spec as skill } from './skill/index.js';
import { spec as themes } from './themes/index.js';
import { spec as uploads } from './uploads/index.js';
import { spec as transactional } from './transactional/index.js';
import { spec as types } from './types/index.js';
import { spec as webhooks } from './webhooks/index.js';
import { spec as workflows } from './workflows/index.js';

export const specs: Spec[] = [
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
  mcp,
  log,
  skill,
  completion,
  commands,
  sandbox,
  doctor,
];

for (const spec of specs) withPlans(spec, []);

/**
 * A write that can plan (--plan --out) runs wrapped by the change cycle's `plannable`, which writes the request
 * the command builds to a plan file: the areas that declare one need not know the apply. A group's
 * commands are wrapped as they are made, on first use (see group() in src/core/declare.ts): a start
 * builds the declarations of its own group alone, not those of every area.
 */
export function withPlans(spec: Spec, path: string[]): void {
  const at = [...path, spec.name];
  if (spec.kind === 'group') {
    const made = Object.getOwnPropertyDescriptor(spec, 'commands')!;
    let wrapped: Spec[] | undefined;
    Object.defineProperty(spec, 'commands', {
      enumerable: true,
      configurable: true,
      get: () => {
        if (wrapped === undefined) {
          wrapped = (made.get?.call(spec) ?? made.value) as Spec[];
          for (const command of wrapped) withPlans(command, at);
        }
        return wrapped;
      },
    });
    return;
  }
  if (!spec.options?.includes(PLAN_OPTION)) return;
  const load = spec.load;
  spec.load = async (tree) => (await import('./change/plannable.js')).plannable(at.join(' '), await load(tree));
}
