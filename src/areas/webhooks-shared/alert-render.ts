/** An alert's transitions as a line each, and as the Slack message `--notify` posts. */
import { sanitize } from '../../base/sanitize.js';
import { escapeMrkdwn, type SlackMessage, section } from '../../render/markup.js';
import { percentText } from './alert-rules.js';
import type { AlertTransition } from './alert-window.js';

function scopeText(transition: AlertTransition): string {
  return transition.email === null ? 'all email' : `"${transition.email.subject}" (${transition.email.id})`;
}

/** `2026-11-27T10:00:00Z  fired     email.hardBounced>5%/1h  all email: 8 of 100 sends (8%) from 09:00:00` */
export function transitionLine(transition: AlertTransition): string {
  const { state, at, rule, events, sends, rate, window } = transition;
  return sanitize(
    `${at.replace('.000Z', 'Z')}  ${state.padEnd(8)}  ${rule}  ${scopeText(transition)}: ${events} of ${sends} sends (${percentText(rate)}) since ${window.from.replace('.000Z', 'Z')}`,
  );
}

/** One message for the transitions of a moment; none when there are none. */
export function transitionsMessage(transitions: readonly AlertTransition[]): SlackMessage | undefined {
  if (transitions.length === 0) return undefined;
  const fired = transitions.filter((transition) => transition.state === 'fired').length;
  const heading = `loopsctl webhooks: ${fired} alert${fired === 1 ? '' : 's'} fired, ${transitions.length - fired} resolved`;
  const lines = transitions.map(
    (transition) =>
      `${transition.state === 'fired' ? ':rotating_light: *Fired*' : ':white_check_mark: *Resolved*'} \`${escapeMrkdwn(transition.rule)}\` on ${escapeMrkdwn(scopeText(transition))}: ${transition.events} of ${transition.sends} sends (${percentText(transition.rate)}), threshold ${percentText(transition.threshold)}`,
  );
  return { text: heading, blocks: [section(`*${escapeMrkdwn(heading)}*`), ...lines.map(section)] };
}
