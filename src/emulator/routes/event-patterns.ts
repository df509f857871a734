/**
 * The sandbox's event patterns: each event an EventTrigger of a workflow listens for is a custom
 * event pattern with the trigger's properties; so is each event the demo team's app has sent that
 * no workflow listens for (`sent`, seeded), and each event sent since (as the outbox holds it),
 * with the types of the properties it carried, as an account has the pattern of an event once the
 * app sent it.
 */
import { z } from '../../base/shapes.js';
import { type EventPattern, eventPattern, eventPatternSummary } from '../../platform/event-patterns/schemas.js';
import { eventProperty } from '../../platform/workflows/node-types.js';
import { answer, find, lazily, listAnswer, notFound, type SandboxModule, type StateCore, seedId, slice } from '../module.js';
import { outbox } from './sandbox.js';
import { workflows } from './workflow-records.js';

/** An event property's type, from a value sent with it. */
function typeOfValue(value: unknown): 'string' | 'number' | 'boolean' {
  return typeof value === 'number' ? 'number' : typeof value === 'boolean' ? 'boolean' : 'string';
}

/**
 * Events the demo team's app sent, whose names hold what each language writes a string with
 * differently (quotes, a backslash, `$` and `#{`, a line break, a line separator, letters past
 * ASCII), a language's keyword, and a name that slugs as `trial_started` does: the cases of
 * `loopsctl types --format env|json|py|go|rb`.
 */
const seedSent = lazily(() =>
  [
    'invoice "paid"',
    'export\\path $HOME #{plan}',
    'digest\nweekly',
    "it's renewed",
    'caf\u00e9 \u2615 \u{1F680}',
    'line\u2028separator',
    'class',
    'Trial Started!',
  ].map((eventName) => ({ eventName, eventProperties: [{ name: 'plan', type: 'string' as const }] })),
);
const sentEvents = slice('sentEvents', z.array(z.object({ eventName: z.string(), eventProperties: z.array(eventProperty()) })), seedSent);

/** One pattern per event name: the workflows' in the order they were created, then the events sent, the seeded first. */
export function patterns(state: StateCore): EventPattern[] {
  const byName = new Map<string, EventPattern>();
  const add = (eventName: string, eventProperties: EventPattern['eventProperties']) => {
    if (!byName.has(eventName)) byName.set(eventName, { id: seedId(`event-pattern/${eventName}`), eventName, eventProperties, incomingWebhookPlatform: null });
  };
  for (const workflow of workflows.of(state)) {
    for (const node of workflow.nodes) {
      const eventName = node.typeName === 'EventTrigger' ? node.eventName : undefined;
      if (typeof eventName === 'string') add(eventName, Array.isArray(node.eventProperties) ? node.eventProperties : []);
    }
  }
  for (const sent of sentEvents.of(state)) add(sent.eventName, sent.eventProperties);
  for (const entry of outbox.of(state)) {
    if (entry.kind !== 'event') continue;
    add(
      entry.eventName,
      Object.entries(entry.eventProperties).map(([name, value]) => ({ name, type: typeOfValue(value) })),
    );
  }
  return [...byName.values()];
}

const summary = ({ eventProperties: _properties, ...fields }: EventPattern) => fields;

export const sandbox: SandboxModule = {
  slices: [sentEvents],
  routes: [
    { operation: 'listEventPatterns', run: (context) => listAnswer(eventPatternSummary, patterns(context.state).map(summary), context) },
    {
      operation: 'getEventPattern',
      run: ({ params, state }) => answer(eventPattern, find(patterns(state), params.eventPatternId!, 'event pattern')),
    },
    {
      operation: 'getEventPatternByName',
      run: ({ params, state }) => {
        const found = patterns(state).find((pattern) => pattern.eventName === params.eventName);
        if (found === undefined) throw notFound(`no event pattern named "${params.eventName}"`);
        return answer(eventPattern, found);
      },
    },
  ],
};
