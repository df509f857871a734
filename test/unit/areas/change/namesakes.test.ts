/**
 * Records matched by name (namesakes.ts) are matched within their kind: a hand-written record of
 * one kind never pairs with the account's record of another kind that has its name, in either half
 * of the tree. Named for the bug it guards against: `namesakes` ignoring the record's kind. And a
 * record of the audience half written by hand pairs by name only with one record of the account
 * no other file holds, and only when the state knows none for it (the mutants of pairAudience a
 * mutation run of the audience group left).
 */
import { describe, expect, it } from 'vitest';
import { ApiClient, everyItem } from '../../../../src/api/client.js';
import type { HttpRequest, HttpResponse } from '../../../../src/api/http.js';
import { RunReads } from '../../../../src/api/read-cache.js';
import { namesakes } from '../../../../src/areas/change/namesakes.js';
import { pairAudience } from '../../../../src/areas/content/audience/plan.js';
import type { RemoteAudience } from '../../../../src/areas/content/audience/remote.js';
import type { RemoteRecord } from '../../../../src/areas/content/emails/remote.js';
import { pairRecords } from '../../../../src/areas/content/emails/sides.js';
import { PLAN_KINDS } from '../../../../src/areas/plan-kinds.js';
import { transactionalGroups } from '../../../../src/areas/transactional/groups.js';

const files = (text: string) => new Map([['x.json', text]]);

describe('namesakes ignoring the record kind', () => {
  it('are of the record kind and its very name only', () => {
    const records = [
      { kind: 'transactional', name: 'Welcome' },
      { kind: 'components', name: 'Welcome' },
      { kind: 'transactional', name: 'welcome' },
    ];
    expect(namesakes(records, { kind: 'transactional', name: 'Welcome' })).toEqual([records[0]]);
    expect(namesakes(records, { kind: 'themes', name: 'Welcome' })).toEqual([]);
  });

  it('an email written by hand does not pair with a component of its name: it stands alone, to be created', () => {
    const component: RemoteRecord = { kind: 'components', id: 'cmp1', name: 'Welcome', files: files('{}'), messages: {} };
    const pairs = pairRecords([{ kind: 'transactional', path: 'transactional/welcome', name: 'Welcome', files: files('{"a":1}') }], [component], {});
    expect(pairs).toEqual([{ local: expect.objectContaining({ path: 'transactional/welcome' }), remote: undefined, synced: undefined }, { remote: component }]);
  });

  it('a group written by hand does not pair with the segment of its name: the account lacks the group', () => {
    const segment: RemoteAudience = { kind: 'segments', id: 'seg1', path: 'segments/customers--seg1', name: 'Customers', files: files('{}') };
    const sides = pairAudience(
      [{ kind: 'groups/campaigns', path: 'groups/campaigns/customers', name: 'Customers', files: files('{"name":"Customers"}') }],
      [segment],
      {},
      new Map(),
    );
    const group = sides.find((side) => side.kind === 'groups/campaigns')!;
    expect(group.remote).toBeUndefined();
    expect(group.standing).toBe('missing');
    expect(sides.find((side) => side.kind === 'segments')).toMatchObject({ remote: segment, standing: 'only-remote' });
  });

  describe('audience records written by hand, paired by name', () => {
    const segment = (id: string, path = `segments/customers--${id}`): RemoteAudience => ({ kind: 'segments', id, path, name: 'Customers', files: files('{}') });
    const local = (path: string) => ({ kind: 'segments' as const, path, name: 'Customers', files: files('{"name":"Customers"}') });

    it('a name two records of the account have pairs with neither: each stands alone, the file ambiguous', () => {
      const [one, two] = [segment('seg1'), segment('seg2')];
      const sides = pairAudience([local('segments/customers')], [one, two], {}, new Map());
      expect(sides.map(({ path, remote, standing }) => [path, remote?.id, standing])).toEqual([
        ['segments/customers', undefined, 'ambiguous'],
        ['segments/customers--seg1', 'seg1', 'only-remote'],
        ['segments/customers--seg2', 'seg2', 'only-remote'],
      ]);
    });

    it('a record another file holds by its id is not a namesake to pair with', () => {
      const held = segment('seg1');
      const sides = pairAudience([local('segments/customers--seg1'), local('segments/customers-copy')], [held], {}, new Map());
      expect(sides.map(({ path, remote, standing }) => [path, remote?.id, standing])).toEqual([
        ['segments/customers--seg1', 'seg1', 'conflict'],
        ['segments/customers-copy', undefined, 'missing'],
      ]);
    });

    it('a file the state knew, whose record is gone from the account, is not paired with another of its name: it was deleted there', () => {
      const other = segment('seg2');
      const sides = pairAudience([local('segments/customers')], [other], { 'segments/customers': { id: 'seg1', digest: 'x' } }, new Map());
      expect(sides.find((side) => side.path === 'segments/customers')).toMatchObject({ remote: undefined, standing: 'missing' });
    });
  });
});

describe("the namesake check reading the run's cached list", () => {
  it('finds a record of the name made meanwhile, though the run read the list before it was made', async () => {
    const group = (id: string, name: string) => ({ id, name, description: '', createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z' });
    const groups = [group('g1', 'Billing')];
    const transport = {
      send: async (_req: HttpRequest): Promise<HttpResponse> => {
        const count = groups.length;
        const pagination = { totalResults: count, returnedResults: count, perPage: 50, totalPages: 1, nextCursor: null, nextPage: null };
        const body = { data: structuredClone(groups), pagination };
        return { status: 200, headers: {}, contentType: 'application/json', text: JSON.stringify(body), body };
      },
    };
    const client = new ApiClient(new RunReads(transport));
    // The run read the list earlier (its account check, its before-images): it keeps that answer.
    expect((await everyItem(client, transactionalGroups.list)).map((group) => group.name)).toEqual(['Billing']);
    // Meanwhile, a teammate (or another copy of the plan) makes the group the plan creates.
    groups.push(group('g2', 'Receipts'));
    const create = {
      record: 'transactional group "Receipts"',
      kind: 'transactional group' as const,
      calls: [{ op: 'request', operation: 'createTransactionalGroup', method: 'POST', path: '/v1/transactional-groups', body: { name: 'Receipts' } }],
    };
    const bound = PLAN_KINDS.bind(create);
    if (bound === undefined || 'message' in bound) throw new Error('the registry binds no held create of a group');
    expect(await bound.conflict(client)).toBe('the account holds transactional group "Receipts" already: applied before, or made meanwhile');
  });
});
