/**
 * The sandbox's event patterns, derived from the workflows: each event an EventTrigger listens for
 * is a custom event pattern with the trigger's properties. Nothing is stored of its own.
 */
import { answer, find, listAnswer, notFound, seedId, type SandboxModule, type StateCore } from '../module.js';
import { workflows } from './workflow-records.js';
import { eventPattern, eventPatternSummary, type EventPattern } from '../../platform/event-patterns/schemas.js';

/** One pattern per event name, in the order the workflows were created. */
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
