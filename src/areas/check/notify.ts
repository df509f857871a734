/**
 * `check --notify`: what changed since the last run (the problems that are new, and those
 * resolved), posted to a team's Slack incoming webhook. Nothing is posted when nothing changed.
 * The webhook's URL is its own authority: the post carries no API key, and its token (the URL's
 * path) is never printed.
 */
import { sendOutside } from '../../api/outside.js';
import type { Uses } from '../../core/capabilities.js';
import type { SlackMessage } from '../../render/markup.js';
import { countOf } from '../../render/numbers.js';
import type { Problem } from './records.js';
import { bySeverity, slackMessage } from './slack.js';

/** What tells one problem from another across runs: a changed message is a change worth telling. */
function identity(problem: Problem): string {
  return JSON.stringify([problem.rule, problem.kind, problem.id, problem.name, problem.file ?? '', problem.message]);
}

export interface Changes {
  added: Problem[];
  resolved: Problem[];
}

/** The problems found now and not before, and those found before and not now; all are new without a before. */
export function changesSince(before: readonly Problem[] | undefined, now: readonly Problem[]): Changes {
  const then = new Set((before ?? []).map(identity));
  const current = new Set(now.map(identity));
  return { added: now.filter((problem) => !then.has(identity(problem))), resolved: (before ?? []).filter((problem) => !current.has(identity(problem))) };
}

/** The message of what changed; none when nothing did. */
export function changesMessage(changes: Changes, summary: string): SlackMessage | undefined {
  const { added, resolved } = changes;
  if (added.length === 0 && resolved.length === 0) return undefined;
  const groups = [...bySeverity(added).map((group) => ({ ...group, title: `New ${group.title.toLowerCase()}` }))];
  if (resolved.length > 0) groups.push({ title: 'Resolved', problems: resolved });
  const heading = `loopsctl check: ${countOf(added.length, 'new problem')}, ${resolved.length} resolved`;
  return slackMessage(heading, groups, summary);
}

/** The webhook's URL as messages name it: its path is the token that lets anyone post. */
export function shownWebhook(url: string): string {
  return `${new URL(url).origin}/…`;
}

export async function postToWebhook(context: Uses<'outside'>, url: string, message: SlackMessage): Promise<void> {
  await sendOutside({
    method: 'POST',
    url,
    shown: shownWebhook(url),
    target: 'the webhook',
    // A post whose answer was lost may have reached the channel: it is not posted twice.
    idempotent: false,
    refusedHint:
      'check the webhook URL in Slack (an app removed or a channel archived ends it); the snapshot is left as it was, so the next run posts these changes again',
    bytes: Buffer.from(JSON.stringify(message)),
    contentType: 'application/json',
    ...context.outsideSettings(),
  });
}
