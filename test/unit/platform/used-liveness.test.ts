/**
 * The rule of whether a component or a theme can email people now (src/platform/used-liveness.ts):
 * a live email uses it, as its LMX says; only the live emails' messages are read, and an account
 * with more than the rule reads is not judged otherwise than live.
 */
import { describe, expect, it } from 'vitest';
import { componentIdsOf, parseLmx, themeIdOf } from '../../../src/lmx/index.js';
import type { Holder, UsedTarget } from '../../../src/platform/liveness.js';
import { TooManyToRead, USED_READ_BOUND, type Uses, whyUsedLive } from '../../../src/platform/used-liveness.js';

const page = (data: unknown[], nextCursor: string | null = null) => ({ pagination: { nextCursor }, data });

/** An account where each kind of email holds a message of its own, live and not. */
function account(lmx: Record<string, string>) {
  const records: Record<string, unknown> = {
    '/v1/transactional-emails?perPage=50': page([{ id: 't1', name: 'Receipt', draftEmailMessageId: 'm-t-draft', publishedEmailMessageId: 'm-t' }]),
    '/v1/campaigns?perPage=50': page([
      { id: 'c1', name: 'November', status: 'Scheduled', emailMessageId: 'm-c', scheduling: { method: 'schedule', timestamp: '2030-01-06T09:00:00.000Z' } },
      { id: 'c2', name: 'Spring', status: 'Draft', emailMessageId: 'm-c-draft', scheduling: null },
    ]),
    '/v1/workflows?perPage=50': page([{ id: 'w1' }], 'p2'),
    '/v1/workflows?perPage=50&cursor=p2': page([{ id: 'w2' }]),
    '/v1/workflows/w1': { id: 'w1', name: 'Welcome', status: 'Sending', nodes: { e: { emailMessageId: 'm-w' } } },
    '/v1/workflows/w2': { id: 'w2', name: 'Win-back', status: 'Draft', nodes: { e: { emailMessageId: 'm-w-draft' } } },
    '/v1/themes?perPage=50': page([
      { id: 'h-dark', isDefault: false },
      { id: 'h-default', isDefault: true },
    ]),
  };
  for (const [id, body] of Object.entries(lmx)) records[`/v1/email-messages/${id}`] = { id, lmx: body };
  const read: string[] = [];
  const uses = (source: string): Uses => {
    const { document } = parseLmx(source);
    const theme = themeIdOf(document);
    return { components: componentIdsOf(document), ...(theme === undefined ? {} : { theme }) };
  };
  const judge = (target: UsedTarget) =>
    whyUsedLive(target, {
      read: async (path) => {
        read.push(path);
        return records[path];
      },
      holders: new Map<string, Holder>(),
      uses,
    });
  return { judge, read, records };
}

const PLAIN = '<Paragraph>Hello</Paragraph>';
const EMBEDS = `${PLAIN}\n<Component componentId="p1" />`;
const DARK = `<Style themeId="h-dark" />\n${PLAIN}`;

describe('whether a component or a theme can email people now', () => {
  it('names each live email that embeds the component, whatever holds it', async () => {
    const { judge } = account({ 'm-t': EMBEDS, 'm-c': EMBEDS, 'm-w': EMBEDS });
    expect(await judge({ kind: 'component', id: 'p1' })).toBe(
      'that 3 live emails use\n  - the published email of transactional email "Receipt" (t1)\n' +
        '  - the email of campaign "November" (c1), which is Scheduled to send at 2030-01-06T09:00:00.000Z: it sends to its audience\n' +
        '  - an email of workflow "Welcome" (w1), which is Sending: contacts move through it',
    );
  });

  it("reads only the live emails' messages: a draft that embeds it reaches no one", async () => {
    const { judge, read } = account({ 'm-t': PLAIN, 'm-c': PLAIN, 'm-w': PLAIN, 'm-t-draft': EMBEDS, 'm-c-draft': EMBEDS, 'm-w-draft': EMBEDS });
    expect(await judge({ kind: 'component', id: 'p1' })).toBeUndefined();
    expect(read.filter((path) => path.startsWith('/v1/email-messages/')).sort()).toEqual([
      '/v1/email-messages/m-c',
      '/v1/email-messages/m-t',
      '/v1/email-messages/m-w',
    ]);
  });

  it('takes a theme as used by the emails that name it, and the default one by those that name none', async () => {
    const named = account({ 'm-t': DARK, 'm-c': PLAIN, 'm-w': PLAIN });
    expect(await named.judge({ kind: 'theme', id: 'h-dark' })).toBe('that a live email uses: the published email of transactional email "Receipt" (t1)');
    expect(await named.judge({ kind: 'theme', id: 'h-default' })).toMatch(/^that 2 live emails use\n {2}- the email of campaign "November"/);
    const none = account({ 'm-t': PLAIN, 'm-c': PLAIN, 'm-w': PLAIN });
    expect(await none.judge({ kind: 'theme', id: 'h-dark' })).toBeUndefined();
    // A theme the account does not hold: the write itself is refused (404), and nothing is read for it.
    expect(await none.judge({ kind: 'theme', id: 'h-gone' })).toBeUndefined();
  });

  it.each([
    ['a theme the account does not hold', 'h-gone'],
    ['an id with a stray space', ' h-dark'],
    ['an id in another case', 'H-DARK'],
  ])('takes an email whose <Style themeId> names %s as drawn with the default theme, as the renderers draw it', async (_what, named) => {
    const { judge } = account({ 'm-t': `<Style themeId="${named}" />\n${PLAIN}`, 'm-c': DARK, 'm-w': DARK });
    expect(await judge({ kind: 'theme', id: 'h-default' })).toBe('that a live email uses: the published email of transactional email "Receipt" (t1)');
    expect(await judge({ kind: 'theme', id: 'h-dark' })).toMatch(/^that 2 live emails use\n {2}- the email of campaign "November"/);
  });

  it('takes a message whose answer carries no LMX for one that may use it', async () => {
    const { judge, records } = account({ 'm-t': PLAIN, 'm-c': PLAIN, 'm-w': PLAIN });
    records['/v1/email-messages/m-w'] = { id: 'm-w' };
    expect(await judge({ kind: 'component', id: 'p1' })).toMatch(/^that a live email uses: an email of workflow "Welcome"/);
  });

  it(`stops past ${USED_READ_BOUND} records and cannot tell, rather than reading the whole account`, async () => {
    const { judge, read, records } = account({});
    records['/v1/workflows?perPage=50'] = page(Array.from({ length: USED_READ_BOUND + 1 }, (_each, index) => ({ id: `w${index}` })));
    await expect(judge({ kind: 'component', id: 'p1' })).rejects.toBeInstanceOf(TooManyToRead);
    expect(read.length).toBeLessThanOrEqual(USED_READ_BOUND + 3);
  });
});
