/**
 * Listings keep names and ids whole: the app's address (`url`, since API 1.22.1) is the first column
 * to go, and a name is cut only when no other column can give way, at 60, 80 and 160 columns.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { campaignListView } from '../../../src/areas/campaigns/render.js';
import { componentListView } from '../../../src/areas/components/render.js';
import { propertyListView } from '../../../src/areas/contact-properties/render.js';
import { mailingListView } from '../../../src/areas/lists/render.js';
import { recordListView } from '../../../src/areas/records/commands.js';
import { segmentListView } from '../../../src/areas/segments/render.js';
import { transactionalListView } from '../../../src/areas/transactional/render.js';
import { workflowListView } from '../../../src/areas/workflows/render.js';
import type { Page } from '../../../src/base/shapes.js';
import { CAMPAIGN_GROUP } from '../../../src/platform/campaign-groups/resource.js';
import { recordRow } from '../../../src/platform/whole-rows.js';
import { type ListView, writeList } from '../../../src/render/list.js';
import { Output } from '../../../src/render/output.js';

async function listed<T>(view: ListView<T>, items: T[], columns: number): Promise<string> {
  let text = '';
  const stdout = Object.assign(
    new Writable({
      write: (chunk, _encoding, done) => {
        text += String(chunk);
        done();
      },
    }),
    { isTTY: true },
  );
  const out = new Output({ json: false, color: false, stdout, stderr: new Writable({ write: (_c, _e, done) => done() }), env: {}, columns });
  async function* pages(): AsyncGenerator<Page<T>> {
    yield {
      data: items,
      pagination: { totalResults: items.length, returnedResults: items.length, perPage: 50, totalPages: 1, nextCursor: null, nextPage: null },
    } as Page<T>;
  }
  await writeList(out, pages(), view);
  return text;
}

const id = (n: number) => `cm${String(n).padStart(23, '0')}`;
const name = (n: number) => `Quarterly product update for enterprise customers, part ${n}`;
const url = (kind: string, n: number) => `https://app.loops.so/${kind}/${id(n)}`;
const TWENTY = Array.from({ length: 20 }, (_, n) => n + 1);

const LISTINGS = [
  ['workflows', workflowListView, TWENTY.map((n) => ({ id: id(n), name: name(n), updatedAt: '2025-06-29T07:47:39.370Z', url: url('workflows', n) }))],
  ['campaigns', campaignListView, TWENTY.map((n) => ({ id: id(n), name: name(n), status: 'Draft', url: url('campaigns', n) }))],
  [
    'transactional',
    transactionalListView(),
    TWENTY.map((n) => ({
      id: id(n),
      name: name(n),
      transactionalGroupId: null,
      publishedEmailMessageId: null,
      draftEmailMessageId: 'cd1',
      updatedAt: '2025-06-29T07:47:39.370Z',
      url: url('transactional', n),
    })),
  ],
] as const;

describe.each(LISTINGS)('%s list', (_kind, view, items) => {
  it('at 160 columns shows every name and id whole, without the url', async () => {
    const text = await listed(view as ListView<unknown>, [...items], 160);
    expect(text.split('\n')[0]).not.toContain('URL');
    for (const item of items) expect(text).toContain(`${item.id}  ${item.name}`);
    expect(text).not.toContain('https://');
    expect(text).not.toContain('…');
  });

  it.each([80, 60])('at %i columns keeps every id whole and never shows the url', async (columns) => {
    const text = await listed(view as ListView<unknown>, [...items], columns);
    expect(text).not.toContain('https://');
    for (const item of items) expect(text).toContain(item.id);
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(columns);
  });
});

const description = 'Monthly product news, release notes and the occasional survey about what to build next';
const TEXT_LISTINGS = [
  ['lists', mailingListView, TWENTY.map((n) => ({ id: id(n), name: `Product updates ${n}`, isPublic: n % 2 === 0, description }))],
  ['campaigns', campaignListView, TWENTY.map((n) => ({ id: id(n), name: `Spring sale, part ${n}`, status: 'Draft', url: url('campaigns', n) }))],
  ['components', componentListView, TWENTY.map((n) => ({ id: id(n), name: `Footer with the address, part ${n}`, lmx: '<Footer />' }))],
  [
    'contact properties',
    propertyListView,
    TWENTY.map((n) => ({ key: `favouriteColour${n}`, label: `Favourite colour, asked at sign-up ${n}`, type: 'string' })),
  ],
  [
    'campaign groups',
    recordListView(recordRow(CAMPAIGN_GROUP)),
    TWENTY.map((n) => ({ id: id(n), name: `Newsletters ${n}`, description, updatedAt: '2025-06-29T07:47:39.370Z' })),
  ],
  [
    'segments',
    segmentListView,
    TWENTY.map((n) => ({
      id: id(n),
      name: `Trials ${n}`,
      description,
      createdAt: '2025-06-29T07:47:39.370Z',
      updatedAt: '2025-06-29T07:47:39.370Z',
      filter: { match: 'all', conditions: [{ type: 'property', key: 'plan', operator: 'equals', value: 'trial' }] },
    })),
  ],
] as const;

describe.each(TEXT_LISTINGS)('%s list at 80 columns', (_kind, view, items) => {
  it('is a table whose free text gives way before names, ids whole', async () => {
    const text = await listed(view as ListView<unknown>, [...items], 80);
    const [header, ...rows] = text.trimEnd().split('\n');
    expect(header).toMatch(/^(ID|KEY) /);
    expect(rows).toHaveLength(items.length);
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    for (const [index, item] of items.entries()) {
      const first = 'id' in item ? item.id : item.key;
      expect(rows[index]!.startsWith(`${first}  `)).toBe(true);
      // A short name stays whole while a description is cut.
      if ('description' in item) expect(rows[index]).toContain(`  ${item.name}  `);
    }
  });
});
