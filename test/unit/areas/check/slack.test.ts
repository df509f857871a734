import { describe, expect, it } from 'vitest';
import { changesMessage, changesSince, shownWebhook } from '../../../../src/areas/check/notify.js';
import type { Problem } from '../../../../src/areas/check/records.js';
import { bySeverity, slackMessage } from '../../../../src/areas/check/slack.js';
import { MAX_BLOCKS, MAX_SECTION_TEXT } from '../../../../src/render/markup.js';

const found = (name: string, overrides: Partial<Problem> = {}): Problem => ({
  rule: 'insecure-link',
  severity: 'warning',
  message: 'a link is not https',
  fix: 'use https',
  kind: 'workflow',
  name,
  id: `id-${name}`,
  ...overrides,
});

describe('the Slack message of a check', () => {
  it("escapes mrkdwn's control characters, so a name can neither ping a channel nor draw a link", () => {
    const message = slackMessage('loopsctl check', bySeverity([found('<!here> Welcome\u001b[31m')]), 'done');
    const text = message.blocks.map((block) => JSON.stringify(block)).join('');
    expect(text).toContain('&lt;!here&gt; Welcome');
    expect(text).not.toContain('<!here>');
    expect(text).not.toContain('\u001b');
    // Verbatim: Slack links no address and parses no mention it finds in a name.
    const changes = changesMessage(changesSince([], [found('@channel https://evil.example')]), 'summary')!;
    for (const each of [message, changes]) {
      const objects = each.blocks.flatMap((block) => ('elements' in block ? block.elements : [block.text])).filter((object) => object.type === 'mrkdwn');
      expect(objects.length).toBeGreaterThan(0);
      for (const object of objects) expect(object).toMatchObject({ verbatim: true });
    }
  });

  it('puts each severity in its sections, errors first, and links a record to its page', () => {
    const message = slackMessage(
      'loopsctl check',
      bySeverity([found('B'), found('A', { severity: 'error', url: 'https://app.loops.so/workflows/a' }), found('C', { severity: 'info' })]),
      'summary',
    );
    expect(message.blocks.map((block) => block.type)).toEqual(['header', 'section', 'section', 'section', 'section']);
    const sections = message.blocks.slice(2).map((block) => (block as { text: { text: string } }).text.text);
    expect(sections).toEqual([
      '*Errors (1)*\n• workflow <https://app.loops.so/workflows/a|"A"> a link is not https `insecure-link`',
      '*Warnings (1)*\n• workflow "B" a link is not https `insecure-link`',
      '*Notes (1)*\n• workflow "C" a link is not https `insecure-link`',
    ]);
  });

  it("keeps within Block Kit's limits and says what was cut", () => {
    const many = Array.from({ length: 3000 }, (_, index) => found(`Email ${index} ${'x'.repeat(200)}`));
    const message = slackMessage(`loopsctl check ${'y'.repeat(300)}`, bySeverity(many), 'summary');
    expect(message.blocks).toHaveLength(MAX_BLOCKS);
    expect((message.blocks[0] as { text: { text: string } }).text.text.length).toBeLessThanOrEqual(150);
    for (const block of message.blocks) if (block.type === 'section') expect(block.text.text.length).toBeLessThanOrEqual(MAX_SECTION_TEXT);
    const shown = message.blocks.map((block) => (block.type === 'section' ? block.text.text.split('\n').filter((line) => line.startsWith('•')).length : 0));
    const last = message.blocks.at(-1)!;
    expect(last.type).toBe('context');
    expect(JSON.stringify(last)).toContain(`${3000 - shown.reduce((a, b) => a + b, 0)} more findings not shown`);
    // One long message is cut to fit a section of its own.
    const long = slackMessage('h', bySeverity([found('x', { message: 'z'.repeat(10_000) })]), 's');
    expect((long.blocks[2] as { text: { text: string } }).text.text.length).toBeLessThanOrEqual(MAX_SECTION_TEXT);
  });

  it('tells what changed since the last run, and nothing when nothing did', () => {
    const before = [found('A'), found('B')];
    const now = [found('B'), found('C', { severity: 'error' })];
    const changes = changesSince(before, now);
    expect([changes.added.map((p) => p.name), changes.resolved.map((p) => p.name)]).toEqual([['C'], ['A']]);
    const message = changesMessage(changes, 'summary')!;
    expect(message.text).toBe('loopsctl check: 1 new problem, 1 resolved');
    expect(message.blocks.slice(2).map((block) => (block as { text: { text: string } }).text.text.split('\n')[0])).toEqual([
      '*New errors (1)*',
      '*Resolved (1)*',
    ]);
    expect(changesMessage(changesSince(now, now), 'summary')).toBeUndefined();
    expect(changesSince(undefined, now).added).toHaveLength(2);
    expect(shownWebhook('https://hooks.slack.com/services/T0/B0/secret')).toBe('https://hooks.slack.com/…');
  });
});
