/**
 * A small local stand-in for the Loops API that answers as the reference says for the fixtures in
 * fixtures.ts, including its error rows: 400 for a bad id or a team without a sending domain, 401
 * for a bad key or a team without the content or workflow API, 404 for unknown ids, 405 for a
 * wrong method on the metrics path.
 */
import type { ServerResponse } from 'node:http';
import { json, startApiServer, type ApiServer, type RecordedRequest } from './api-server.js';
import * as fx from './fixtures.js';

export const KEYS = {
  valid: 'test-key-valid-0001',
  noContent: 'test-key-no-content',
  noWorkflows: 'test-key-no-workflows',
  noDomain: 'test-key-no-domain',
};

export const themes = Array.from({ length: 25 }, (_, index) => fx.theme(25 - index));
export const groups = Array.from({ length: 12 }, (_, index) => fx.group(12 - index));

type Gate = 'content' | 'workflows' | 'none';

function keyOf(req: RecordedRequest): string {
  return (req.headers.authorization ?? '').replace(/^Bearer /, '');
}

function authorized(req: RecordedRequest, res: ServerResponse, gate: Gate): boolean {
  const key = keyOf(req);
  if (!Object.values(KEYS).includes(key)) {
    json(res, 401, { message: 'Invalid API key' });
    return false;
  }
  if (gate === 'content' && key === KEYS.noContent) {
    json(res, 401, { message: 'The content API is not enabled for this team.' });
    return false;
  }
  if (gate === 'workflows' && key === KEYS.noWorkflows) {
    json(res, 401, { message: 'The workflow API is not enabled for this team.' });
    return false;
  }
  return true;
}

/** Pages through `items` by cursor "c<offset>" with the documented perPage bounds. */
function page(req: RecordedRequest, res: ServerResponse, items: unknown[]): void {
  const perPage = Number(req.query.get('perPage') ?? 20);
  if (!Number.isInteger(perPage) || perPage < 10 || perPage > 50) return json(res, 400, { message: 'perPage must be between 10 and 50.' });
  const cursor = req.query.get('cursor');
  const offset = cursor === null ? 0 : Number(cursor.slice(1));
  const slice = items.slice(offset, offset + perPage);
  const next = offset + perPage < items.length ? `c${offset + perPage}` : null;
  json(res, 200, fx.envelope(slice, next, perPage, items.length));
}

/** Answers 400 for an id the API would call invalid, 404 for one it does not know. */
function byId(res: ServerResponse, id: string, records: Record<string, unknown>, noun: string): void {
  if (!/^[A-Za-z0-9_]+$/.test(id)) return json(res, 400, { message: `Invalid ${noun} id.` });
  if (Object.hasOwn(records, id)) return json(res, 200, records[id]);
  json(res, 404, { message: `${noun} not found.` });
}

const gated = (gate: Gate, answer: (req: RecordedRequest, res: ServerResponse) => void) => (req: RecordedRequest, res: ServerResponse) => {
  if (authorized(req, res, gate)) answer(req, res);
};

const noDomain = (req: RecordedRequest) => keyOf(req) === KEYS.noDomain;

export function startFakeLoops(): Promise<ApiServer> {
  return startApiServer({
    'GET /v1/api-key': gated('none', (_req, res) => json(res, 200, { success: true, teamName: 'Acme Inc' })),
    'GET /v1/transactional-emails': gated('content', (req, res) => page(req, res, [fx.transactionalEmail])),
    'POST /v1/transactional-emails': gated('content', (req, res) => {
      if (noDomain(req)) return json(res, 400, { message: 'No sending domain configured.' });
      const body = JSON.parse(req.body) as { name?: unknown; transactionalGroupId?: string };
      if (typeof body.name !== 'string') return json(res, 400, { message: 'name is required.' });
      json(res, 201, { ...fx.draftRecord, id: 'tx_new', name: body.name, publishedEmailMessageId: null, transactionalGroupId: body.transactionalGroupId ?? 'grp_default', dataVariables: [] });
    }),
    'GET /v1/transactional-emails/:id/metrics': gated('none', (req, res) =>
      byId(res, req.params.id!, {
        tx_welcome: { sends: 1200, deliveries: 1180, spamReports: 2, hardBounces: 6, softBounces: 9 },
        tx_unsent: { sends: 0, deliveries: 0, spamReports: 0, hardBounces: 0, softBounces: 0, opens: 0 },
      }, 'Transactional email'),
    ),
    'POST /v1/transactional-emails/:id/metrics': (_req, res) => {
      res.writeHead(405);
      res.end();
    },
    'POST /v1/transactional-emails/:id/draft': gated('content', (req, res) => {
      if (noDomain(req)) return json(res, 400, { message: 'No sending domain configured.' });
      byId(res, req.params.id!, { tx_welcome: fx.draftRecord }, 'Transactional email');
    }),
    'GET /v1/transactional-groups': gated('content', (req, res) => page(req, res, groups)),
    'GET /v1/transactional-groups/:id': gated('content', (req, res) => byId(res, req.params.id!, { grp_1: fx.group(1) }, 'Group')),
    'GET /v1/campaign-groups': gated('content', (req, res) => page(req, res, [fx.group(3, 'Unsorted'), fx.group(2), fx.group(1)])),
    'GET /v1/campaign-groups/:id': gated('content', (req, res) => byId(res, req.params.id!, { grp_1: fx.group(1) }, 'Campaign group')),
    'POST /v1/campaign-groups/:id': gated('content', (req, res) => {
      if (req.params.id === 'grp_3') return json(res, 400, { message: 'The Unsorted group cannot be edited.' });
      byId(res, req.params.id!, { grp_1: { ...fx.group(1), ...(JSON.parse(req.body) as object) } }, 'Campaign group');
    }),
    'GET /v1/workflows': gated('workflows', (req, res) =>
      page(req, res, [{ id: fx.workflow.id, name: fx.workflow.name, status: 'Draft', createdAt: '2025-06-29T07:47:39.370Z', updatedAt: '2025-06-29T07:47:39.370Z' }]),
    ),
    'GET /v1/workflows/:id': gated('workflows', (req, res) => byId(res, req.params.id!, { [fx.workflow.id]: fx.workflow }, 'Workflow')),
    'GET /v1/workflows/:id/nodes/:nodeId': gated('workflows', (req, res) => {
      if (req.params.id !== fx.workflow.id) return json(res, 404, { message: 'Workflow not found.' });
      byId(res, req.params.nodeId!, { n_prop: fx.contactPropertyNode, n_trigger: fx.eventTriggerNode }, 'Workflow node');
    }),
    'GET /v1/themes': gated('none', (req, res) => page(req, res, themes)),
    'GET /v1/audience-segments': gated('none', (req, res) => page(req, res, [fx.segment])),
    'GET /v1/dedicated-sending-ips': gated('none', (_req, res) => json(res, 200, ['52.21.45.123', '2600:1f18:4a3::10'])),
  });
}
