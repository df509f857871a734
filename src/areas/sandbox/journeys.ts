/**
 * `loopsctl sandbox clock`, `journeys`, `engagement` and `send-campaign`: the sandbox's clock read
 * and moved forward, the journeys of its contacts through the workflows, what sends meet, and a
 * campaign sent, from its state file, with no server (a running one reading that file sees the
 * change at once).
 */
import { NotFoundError, RejectedError, UsageError } from '../../base/errors.js';
import { type Handler, handler, type Uses } from '../../core/capabilities.js';
import { CAMPAIGN_SEND_PATH, CLOCK_PATH, defaultStatePath, ENGAGEMENT_PATH, JOURNEYS_PATH, type Journey, stateFileRequest } from '../../emulator/index.js';
import { renderJourneys } from './render.js';

interface StateOption {
  state?: string;
}

/**
 * The sandbox's answer, or its refusal in its words: a value it does not take is a usage error (a
 * clock's with the forms it takes), a record it does not have exit 4 as the API's commands give.
 */
async function ask(context: Uses<'config'>, options: StateOption, method: 'GET' | 'POST', target: string, body?: unknown): Promise<unknown> {
  const answer = await stateFileRequest(options.state ?? defaultStatePath(context.configDir), method, target, body);
  const message = (answer.body as { message?: string } | undefined)?.message;
  if (answer.status === 400)
    throw new UsageError(
      message ?? 'the sandbox refused the request',
      target === CLOCK_PATH ? { hint: 'durations look like 3d, 1h30m or 90s; times like 2025-01-31T09:00:00Z' } : {},
    );
  if (answer.status === 404) throw new NotFoundError(message ?? 'the sandbox has no such record');
  if (answer.status === 409) throw new RejectedError(message ?? 'the sandbox refused the request');
  if (answer.status !== 200) throw new Error(`the sandbox answered ${answer.status}: ${message ?? ''}`);
  return answer.body;
}

interface ClockAnswer {
  now: string;
  frozen: boolean;
  released?: number;
}

async function showClock(context: Uses<'out'>, answer: ClockAnswer): Promise<void> {
  const { out } = context;
  if (out.json) return out.writeJson(answer);
  await out.write(`${answer.now}${answer.frozen ? ' (frozen)' : ''}\n`);
  if (answer.released !== undefined && answer.released > 0)
    out.note(`${answer.released} waiting ${answer.released === 1 ? 'journey' : 'journeys'} went on (see \`loopsctl sandbox journeys\`).`);
}

export const clockShow: Handler<[], StateOption> = handler(['out', 'config'], async (context, _args, options) =>
  showClock(context, (await ask(context, options, 'GET', CLOCK_PATH)) as ClockAnswer),
);

export const clockAdvance: Handler<[string], StateOption> = handler(['out', 'config'], async (context, [duration], options) =>
  showClock(context, (await ask(context, options, 'POST', CLOCK_PATH, { advance: duration })) as ClockAnswer),
);

export const clockSet: Handler<[string], StateOption> = handler(['out', 'config'], async (context, [time], options) =>
  showClock(context, (await ask(context, options, 'POST', CLOCK_PATH, { to: time })) as ClockAnswer),
);

export const journeys: Handler<[], StateOption & { contact?: string; workflow?: string }> = handler(['out', 'config'], async (context, _args, options) => {
  const query = new URLSearchParams();
  if (options.contact !== undefined) query.set('contact', options.contact);
  if (options.workflow !== undefined) query.set('workflow', options.workflow);
  const answer = (await ask(context, options, 'GET', `${JOURNEYS_PATH}${query.size === 0 ? '' : `?${query}`}`)) as { now: string; journeys: Journey[] };
  const { out } = context;
  if (out.json) return out.writeJson(answer.journeys);
  if (answer.journeys.length === 0) return out.note('No journeys yet: one starts when a sending workflow’s trigger lets a contact in.');
  await out.write(renderJourneys(out, answer.journeys));
});

interface EngagementOptions extends StateOption {
  email?: string;
  deliveryRate?: number;
  openRate?: number;
  clickRate?: number;
  unsubscribeRate?: number;
  hardBounceRate?: number;
  softBounceRate?: number;
  spamRate?: number;
}

export const engagement: Handler<[], EngagementOptions> = handler(['out', 'config'], async (context, _args, options) => {
  if (options.email === undefined) throw new UsageError('--email is needed: the transactional email or workflow node whose sends the rates are for');
  const { deliveryRate, openRate, clickRate, hardBounceRate, softBounceRate, spamRate, unsubscribeRate } = options;
  const rates = { deliveryRate, openRate, clickRate, hardBounceRate, softBounceRate, spamRate, unsubscribeRate };
  const answer = (await ask(context, options, 'POST', ENGAGEMENT_PATH, { emailId: options.email, ...rates })) as Record<string, number | string>;
  const { out } = context;
  if (out.json) return out.writeJson(answer);
  // A rate a line, those that are not 0 (and the delivery rate, always): a line of them all would not fit a terminal.
  const names: [string, string][] = [
    ['deliveryRate', 'delivered'],
    ['openRate', 'opened'],
    ['clickRate', 'clicked'],
    ['hardBounceRate', 'hard bounced'],
    ['softBounceRate', 'soft bounced'],
    ['spamRate', 'reported as spam'],
    ['unsubscribeRate', 'unsubscribed'],
  ];
  const lines = names
    .filter(([key]) => key === 'deliveryRate' || Number(answer[key]) > 0)
    .map(([key, name]) => `  ${name.padEnd(17)} ${Math.round(Number(answer[key]) * 10_000) / 100}%\n`);
  await out.write(`${answer.emailId}, of its sends from now (the other rates 0):\n${lines.join('')}`);
});

export const sendCampaign: Handler<[string], StateOption> = handler(['out', 'config'], async (context, [campaignId], options) => {
  const answer = (await ask(context, options, 'POST', CAMPAIGN_SEND_PATH, { campaignId })) as { campaignId: string; name: string; sent: number };
  const { out } = context;
  if (out.json) return out.writeJson(answer);
  await out.write(`sent ${answer.name} (${answer.campaignId}) to ${answer.sent} ${answer.sent === 1 ? 'contact' : 'contacts'}\n`);
});
