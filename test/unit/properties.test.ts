/** Property-based tests: ids, the sanitizer, paging and the workflow tree, over generated inputs. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import type { HttpRequest, HttpResponse, Transport } from '../../src/api/http.js';
import { checkId, encodeSegment, MAX_ID_LENGTH, path } from '../../src/api/ids.js';
import { transactionalGroups } from '../../src/areas/transactional/groups.js';
import { type ChangeMark, renderWorkflowTree } from '../../src/areas/workflows/tree.js';
import { UsageError } from '../../src/base/errors.js';
import { sanitize } from '../../src/base/sanitize.js';
import { envelope, group } from '../support/fixtures.js';

/** Controls, and the invisible characters that make text read differently: bidi, zero-width, separators. */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060\u2066-\u2069\ufeff]/;
const anyText = fc.string({ unit: 'binary', maxLength: 200 });

describe('ids', () => {
  it('checkId accepts exactly the non-empty ids without whitespace, controls or broken characters, up to the length limit', () => {
    fc.assert(
      // "." and ".." are left out: whether they are refused or encoded is a separate decision.
      fc.property(
        fc.string({ unit: 'binary', maxLength: MAX_ID_LENGTH + 20 }).filter((value) => value !== '.' && value !== '..'),
        (value) => {
          const acceptable = value.length > 0 && value.length <= MAX_ID_LENGTH && value.isWellFormed() && !/[\s\p{Cc}]/u.test(value);
          if (acceptable) expect(checkId(value)).toBe(value);
          else expect(() => checkId(value)).toThrow(UsageError);
        },
      ),
    );
  });

  it('every accepted id is one path segment that decodes back to itself', () => {
    const accepted = fc.string({ unit: 'binary', minLength: 1, maxLength: MAX_ID_LENGTH }).filter((value) => {
      if (value === '.' || value === '..') return false;
      try {
        checkId(value);
        return true;
      } catch {
        return false;
      }
    });
    fc.assert(
      fc.property(accepted, (id) => {
        const encoded = encodeSegment(id);
        expect(encoded).toMatch(/^[A-Za-z0-9%_.~!*'()-]+$/);
        const url = new URL(`https://api.example${path`/v1/workflows/${id}/nodes`}`);
        const segments = url.pathname.split('/');
        expect(segments).toHaveLength(5);
        expect(segments.slice(0, 3)).toEqual(['', 'v1', 'workflows']);
        expect(segments[4]).toBe('nodes');
        expect(decodeURIComponent(segments[3]!)).toBe(id);
      }),
    );
  });

  it('keeps "/", "?" and "#" inside the segment', () => {
    expect(path`/v1/workflows/${'a/b?c#d'}`).toBe('/v1/workflows/a%2Fb%3Fc%23d');
  });
});

describe('sanitize', () => {
  it('leaves no control character (C0, DEL or C1) nor invisible format character', () => {
    const withInvisibles = fc.string({
      unit: fc.oneof(fc.constantFrom('\u200b', '\u202e', '\u2066', '\u2028', '\ufeff', '\u001b'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })),
      maxLength: 60,
    });
    fc.assert(
      fc.property(fc.oneof(anyText, withInvisibles), (text) => {
        expect(sanitize(text)).not.toMatch(UNSAFE);
      }),
    );
  });

  it('changes nothing in text without those characters', () => {
    fc.assert(
      fc.property(
        anyText.filter((text) => !UNSAFE.test(text)),
        (text) => {
          expect(sanitize(text)).toBe(text);
        },
      ),
    );
  });

  it('replaces each control character by its own visible escape and keeps everything else in place', () => {
    const pieces = fc.array(fc.oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0x7f, max: 0x9f }), fc.constantFrom(-1)), { maxLength: 30 });
    fc.assert(
      fc.property(pieces, (codes) => {
        const text = codes.map((code) => (code === -1 ? 'ab' : String.fromCharCode(code))).join('');
        const expected = codes
          .map((code) => {
            if (code === -1) return 'ab';
            const named: Record<number, string> = { 9: '\\t', 10: '\\n', 13: '\\r' };
            return named[code] ?? `\\x${code.toString(16).padStart(2, '0')}`;
          })
          .join('');
        expect(sanitize(text)).toBe(expected);
      }),
    );
  });
});

describe('ApiClient.pages', () => {
  /** A fake API that serves `total` items in pages whose sizes it picks itself. */
  function fakeApi(total: number, pageSizes: number[]) {
    const requests: HttpRequest[] = [];
    const transport: Transport = {
      async send(req): Promise<HttpResponse> {
        requests.push(req);
        const start = Number(req.query?.cursor ?? 0);
        const size = pageSizes[requests.length - 1] ?? Number(req.query?.perPage ?? 20);
        const end = Math.min(total, start + size);
        const items = Array.from({ length: end - start }, (_, index) => group(start + index));
        // Pages of changing sizes: announce as many pages as the smallest size would make.
        const body = envelope(items, end < total ? String(end) : null, 1, total);
        return { status: 200, headers: {}, contentType: 'application/json', text: JSON.stringify(body), body };
      },
    };
    return { transport, requests };
  }

  it('yields every item once, in order, respects the limit and asks for no page it does not need', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 300 }),
        fc.array(fc.integer({ min: 1, max: 50 }), { maxLength: 40 }),
        fc.option(fc.integer({ min: 1, max: 320 }), { nil: undefined }),
        fc.option(fc.integer({ min: 10, max: 50 }), { nil: undefined }),
        async (total, pageSizes, limit, perPage) => {
          const api = fakeApi(total, pageSizes);
          const seen: string[] = [];
          for await (const received of new ApiClient(api.transport).pages(transactionalGroups.list, { limit, perPage })) {
            seen.push(...received.data.map((item) => item.id));
          }
          const wanted = Math.min(total, limit ?? Infinity);
          expect(seen).toEqual(Array.from({ length: wanted }, (_, index) => `grp_${index}`));

          // The oracle: pages, as the server sized them, until the wanted items are in.
          let needed = 0;
          for (let served = 0; needed === 0 || served < wanted; needed += 1) {
            served += pageSizes[needed] ?? Number(api.requests[needed]?.query?.perPage ?? 20);
          }
          expect(api.requests).toHaveLength(needed);
          for (const request of api.requests) expect(request.idempotent).toBe(true);
        },
      ),
    );
  });
});

describe('renderWorkflowTree', () => {
  const graphs = fc.integer({ min: 0, max: 25 }).chain((count) => {
    const ids = Array.from({ length: count }, (_, index) => `node_${index}`);
    const target = fc.oneof(
      { weight: 5, arbitrary: ids.length > 0 ? fc.constantFrom(...ids) : fc.constant('gone_0') },
      { weight: 1, arbitrary: fc.constantFrom('gone_0', 'gone_1') },
    );
    return fc.record({
      nodes: fc.tuple(...ids.map(() => fc.array(target, { maxLength: 4 }))),
      root: fc.option(target, { nil: null }),
      ids: fc.constant(ids),
    });
  });

  it('always ends and draws every node in full exactly once, the reachable ones in the tree', () => {
    fc.assert(
      fc.property(graphs, fc.boolean(), ({ nodes, root, ids }, unicode) => {
        const graph = {
          rootNodeId: root,
          nodes: Object.fromEntries(ids.map((id, index) => [id, { typeName: 'ExitAction', nextNodeIds: nodes[index]! }])),
        };
        const lines = renderWorkflowTree(graph, { unicode }).split('\n');
        const drawnInFull = (part: string[]) =>
          part.map((line) => /(?:^|[ \-`|│├└─]+)ExitAction {2}(node_\d+)$/.exec(line)?.[1]).filter((id) => id !== undefined);
        expect(drawnInFull(lines).sort()).toEqual([...ids].sort());

        const reachable = new Set<string>();
        const stack = root !== null && Object.hasOwn(graph.nodes, root) ? [root] : [];
        while (stack.length > 0) {
          const id = stack.pop()!;
          if (reachable.has(id)) continue;
          reachable.add(id);
          for (const next of graph.nodes[id]!.nextNodeIds) if (Object.hasOwn(graph.nodes, next)) stack.push(next);
        }
        const splitAt = lines.indexOf('Not reachable from the trigger:');
        expect(new Set(drawnInFull(splitAt === -1 ? lines : lines.slice(0, splitAt)))).toEqual(reachable);

        // A line per node and per edge from a drawn node, plus a few headings: never more.
        const edges = Object.values(graph.nodes).reduce((sum, node) => sum + node.nextNodeIds.length, 0);
        expect(lines.length).toBeLessThanOrEqual(ids.length + edges + 5);
      }),
    );
  });

  it('lays a label out on one line as wrapping would with room to spare, spacing, marks and colours alike', () => {
    const spaced = fc.array(fc.constantFrom('a', 'bc', ' ', '  ', '\t', '\n'), { maxLength: 8 }).map((parts) => parts.join(''));
    const paint = (tag: string) => (text: string) => `<${tag}>${text}</${tag}>`;
    fc.assert(
      fc.property(
        spaced,
        spaced,
        fc.option(fc.constantFrom('added', 'changed', 'removed') as fc.Arbitrary<ChangeMark>, { nil: undefined }),
        fc.boolean(),
        (typeName, annotation, mark, painted) => {
          const graph = { rootNodeId: 'n', nodes: { n: { typeName, nextNodeIds: ['gone'] } } };
          const options = {
            unicode: false,
            marks: mark === undefined ? undefined : new Map([['n', mark]]),
            annotations: new Map([['n', annotation]]),
            paint: painted
              ? { type: paint('t'), id: paint('i'), missing: paint('m'), annotation: paint('a'), mark: { [mark ?? 'added']: paint('k') } }
              : undefined,
          };
          expect(renderWorkflowTree(graph, options)).toBe(renderWorkflowTree(graph, { ...options, width: 10_000 }));
        },
      ),
    );
  });
});
