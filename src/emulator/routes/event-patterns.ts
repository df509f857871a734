/**
 * The sandbox's event patterns, derived from the workflows and the events sent: each event an
 * EventTrigger listens for is a custom event pattern with the trigger's properties, and so is each
 * event sent (as the outbox holds it), with the types of the properties it carried, as an account
 * has the pattern of an event once the app sent it. Nothing is stored of its own.
 */
import { answer, find, listAnswer, notFound, seedId, type SandboxModule, type StateCore } from '../module.js';
import { workflows } from './workflow-records.js';
import { outbox } from './sandbox.js';
import { eventPattern, eventPatternSummary, type EventPattern } from '../../platform/event-patterns/schemas.js';

/** An event property's type, from a value sent with it. */
function typeOfValue(value: unknown): 'string' | 'number' | 'boolean' {
  return typeof value === 'number' ? 'number' : typeof value === 'boolean' ? 'boolean' : 'string';
}

/** One pattern per event name: the workflows' in the order they were created, then the events sent, in the order they were. */
export function patterns(state: StateCore): EventPattern[] {
  const byName = new Map<string, EventPattern>();
  for (const workflow of workflows.of(state)) {
    for (const node of workflow.nodes) {
      const eventName = node.typeName === 'EventTrigger' ? node.eventName : undefined;
      if (typeof eventName !== 'string' || byName.has(eventName)) continue;
      const eventProperties = Array.isArray(node.eventProperties) ? node.eventProperties : [];
      byName.set(eventName, { id: seedId(`event-pattern/${eventName}`), eventName, eventProperties, incomingWebhookPlatform: null });
    }
  }
  for (const entry of outbox.of(state)) {
    if (entry.kind !== 'event' || byName.has(entry.eventName)) continue;
    const eventProperties = Object.entries(entry.eventProperties).map(([name, value]) => ({ name, type: typeOfValue(value) }));
    byName.set(entry.eventName, { id: seedId(`event-pattern/${entry.eventName}`), eventName: entry.eventName, eventProperties, incomingWebhookPlatform: null });
  }
  return [...byName.values()];
}

const summary = ({ eventProperties: _properties, ...fields }: EventPattern) => fields;

export const sandbox: SandboxModule = {
  slices: [],
  routes: [
    { method: 'GET', path: '/v1/event-patterns', run: (context) => listAnswer(eventPatternSummary, patterns(context.state).map(summary), context) },
    {
      method: 'GET',
      path: '/v1/event-patterns/:eventPatternId',
      run: ({ params, state }) => answer(eventPattern, find(patterns(state), params.eventPatternId!, 'event pattern')),
    },
    {
      method: 'GET',
      path: '/v1/event-patterns/by-name/:eventName',
      run: ({ params, state }) => {
        const found = patterns(state).find((pattern) => pattern.eventName === params.eventName);
        if (found === undefined) throw notFound(`no event pattern named "${params.eventName}"`);
        return answer(eventPattern, found);
      },
    },
  ],
};
