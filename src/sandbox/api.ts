/**
 * The rules of the Loops API as its reference states them, applied to a sandbox account: keys and
 * the features they enable, pagination, the resources, and every documented failure. It knows
 * nothing of sockets: a request goes in, an answer comes out, and every answer is checked against
 * the strict form of the client's own schema before it leaves.
 */
import type { z } from 'zod';
import { PER_PAGE_MAX, PER_PAGE_MIN } from '../api/client.js';
import * as s from '../api/schemas.js';
import { seedId } from './seed.js';
import type { SandboxState, StoredTransactional, StoredWorkflow } from './state.js';
import { strictFormOf } from './strict.js';

export interface ApiRequest {
  method: string;
  /** The path, percent-encoded as sent, without the query. */
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
  /** The raw body; empty when none was sent. */
  body: string;
}

export interface ApiAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

interface KeyFeatures {
  content: boolean;
  workflows: boolean;
  sendingDomain: boolean;
}

/** The keys the sandbox accepts, each standing for a team with some features turned off. */
export const SANDBOX_KEYS: Record<string, KeyFeatures> = {
  'sandbox-key': { content: true, workflows: true, sendingDomain: true },
  'sandbox-no-content': { content: false, workflows: true, sendingDomain: true },
  'sandbox-no-workflows': { content: true, workflows: false, sendingDomain: true },
  'sandbox-no-domain': { content: true, workflows: true, sendingDomain: false },
};
export const SANDBOX_KEY = 'sandbox-key';

/** A failure the API documents: a status and a `{message}` body. */
class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const badRequest = (message: string) => new ApiFailure(400, message);
const notFound = (message: string) => new ApiFailure(404, message);

/** Ids as the API issues them: letters, digits, '_' and '-'. Anything else is a 400. */
const VALID_ID = /^[A-Za-z0-9_-]{1,128}$/;

interface Context {
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  features: KeyFeatures;
}

interface Operation {
  /** The feature the team needs for this operation, else 401. */
  needs?: 'content' | 'workflows';
  run(context: Context): ApiAnswer;
}

interface Route {
  segments: string[];
  methods: Partial<Record<'GET' | 'POST', Operation>>;
}

export interface SandboxApiOptions {
  /** Called after every change, with the state as it now is. */
  onChange?: (state: SandboxState) => void;
  now?: () => Date;
}

export class SandboxApi {
  private readonly routes: Route[];
  private readonly now: () => Date;

  constructor(
    readonly state: SandboxState,
    private readonly options: SandboxApiOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.routes = this.buildRoutes();
  }

  handle(request: ApiRequest): ApiAnswer {
    try {
      return this.dispatch(request);
    } catch (error) {
      if (error instanceof ApiFailure) return answer(s.errorBody, { message: error.message }, error.status, error.headers);
      throw error;
    }
  }

  private dispatch(request: ApiRequest): ApiAnswer {
    const segments = request.path.split('/').slice(1);
    const matched = this.match(segments);
    if (matched === undefined) throw notFound(`no such path: ${request.path}`);
    const { route, params } = matched;
    const operation = route.methods[request.method as 'GET' | 'POST'];
    if (operation === undefined) {
      const allowed = Object.keys(route.methods).join(', ');
      throw new ApiFailure(405, `${request.method} is not allowed on ${request.path}; use ${allowed}`, { allow: allowed });
    }
    const features = authenticate(request.authorization);
    if (operation.needs === 'content' && !features.content) throw new ApiFailure(401, 'The content API is not enabled for this team');
    if (operation.needs === 'workflows' && !features.workflows) throw new ApiFailure(401, 'The workflow API is not enabled for this team');
    for (const [name, value] of Object.entries(params)) {
      if (!VALID_ID.test(value)) throw badRequest(`invalid ${name}: "${value}"`);
    }
    return operation.run({ params, query: request.query, body: parseBody(request), features });
  }

  private match(segments: string[]): { route: Route; params: Record<string, string> } | undefined {
    for (const route of this.routes) {
      if (route.segments.length !== segments.length) continue;
      const params: Record<string, string> = {};
      const fits = route.segments.every((pattern, index) => {
        const segment = segments[index]!;
        if (!pattern.startsWith(':')) return pattern === segment;
        params[pattern.slice(1)] = safeDecode(segment);
        return true;
      });
      if (fits) return { route, params };
    }
    return undefined;
  }

  private buildRoutes(): Route[] {
    const route = (path: string, methods: Route['methods']): Route => ({ segments: path.split('/').slice(1), methods });
    const state = this.state;
    return [
      route('/v1/api-key', { GET: { run: () => answer(s.apiKeyInfo, { success: true, teamName: state.teamName }) } }),
      route('/v1/transactional-emails', {
        GET: { needs: 'content', run: ({ query }) => listAnswer(s.transactionalEmail, state.transactionalEmails.map(listedTransactional), query) },
        POST: { needs: 'content', run: (context) => this.createTransactional(context) },
      }),
      route('/v1/transactional-emails/:transactionalId/draft', { POST: { needs: 'content', run: (context) => this.ensureDraft(context) } }),
      route('/v1/transactional-emails/:transactionalId/metrics', {
        GET: { run: ({ params }) => answer(s.transactionalMetrics, this.transactional(params.transactionalId!).metrics) },
      }),
      route('/v1/transactional-groups', { GET: { needs: 'content', run: ({ query }) => listAnswer(s.group, state.transactionalGroups, query) } }),
      route('/v1/transactional-groups/:transactionalGroupId', {
        GET: { needs: 'content', run: ({ params }) => answer(s.group, find(state.transactionalGroups, params.transactionalGroupId!, 'transactional group')) },
      }),
      route('/v1/campaign-groups', { GET: { needs: 'content', run: ({ query }) => listAnswer(s.group, state.campaignGroups, query) } }),
      route('/v1/campaign-groups/:campaignGroupId', {
        GET: { needs: 'content', run: ({ params }) => answer(s.group, find(state.campaignGroups, params.campaignGroupId!, 'campaign group')) },
        POST: { needs: 'content', run: (context) => this.updateCampaignGroup(context) },
      }),
      route('/v1/workflows', { GET: { needs: 'workflows', run: ({ query }) => listAnswer(s.workflowSummary, state.workflows.map(workflowSummary), query) } }),
      route('/v1/workflows/:workflowId', {
        GET: { needs: 'workflows', run: ({ params }) => answer(s.workflow, simplifiedWorkflow(find(state.workflows, params.workflowId!, 'workflow'))) },
      }),
      route('/v1/workflows/:workflowId/nodes/:nodeId', {
        GET: { needs: 'workflows', run: ({ params }) => answer(s.workflowNode, this.workflowNode(params.workflowId!, params.nodeId!)) },
      }),
      route('/v1/themes', { GET: { run: ({ query }) => listAnswer(s.theme, state.themes, query) } }),
      route('/v1/audience-segments', { GET: { run: ({ query }) => listAnswer(s.audienceSegment, state.segments, query) } }),
      route('/v1/dedicated-sending-ips', { GET: { run: () => answer(s.dedicatedSendingIps, state.sendingIps) } }),
    ];
  }

  private transactional(id: string): StoredTransactional {
    const found = this.state.transactionalEmails.find((email) => email.record.id === id);
    if (found === undefined) throw notFound(`transactional email ${id} not found`);
    return found;
  }

  private createTransactional({ body, features }: Context): ApiAnswer {
    const fields = objectBody(body, ['name', 'transactionalGroupId'], ['name']);
    const name = stringField(fields, 'name');
    if (name.trim() === '') throw badRequest('name must not be empty');
    const groupId = fields.transactionalGroupId === undefined ? this.state.defaultTransactionalGroupId : stringField(fields, 'transactionalGroupId');
    if (!this.state.transactionalGroups.some((group) => group.id === groupId)) throw badRequest(`transactional group ${groupId} does not exist`);
    if (!features.sendingDomain) throw noSendingDomain();
    const id = this.newId();
    const stamp = this.now().toISOString();
    const created: StoredTransactional = {
      record: {
        id,
        name,
        draftEmailMessageId: this.newId(),
        draftEmailMessageContentRevisionId: this.newId(),
        publishedEmailMessageId: null,
        transactionalGroupId: groupId,
        createdAt: stamp,
        updatedAt: stamp,
        dataVariables: [],
      },
      metrics: { sends: 0, deliveries: 0, spamReports: 0, hardBounces: 0, softBounces: 0 },
    };
    this.state.transactionalEmails.push(created);
    this.changed();
    return answer(s.transactionalDraftRecord, created.record, 201);
  }

  /** Returns the record unchanged when it has a draft; else makes one from the published version. */
  private ensureDraft({ params, body, features }: Context): ApiAnswer {
    objectBody(body ?? {}, [], []);
    const email = this.transactional(params.transactionalId!);
    if (email.record.draftEmailMessageId === null) {
      if (!features.sendingDomain) throw noSendingDomain();
      email.record.draftEmailMessageId = this.newId();
      email.record.draftEmailMessageContentRevisionId = this.newId();
      email.record.updatedAt = this.now().toISOString();
      this.changed();
    }
    return answer(s.transactionalDraftRecord, email.record);
  }

  private updateCampaignGroup({ params, body }: Context): ApiAnswer {
    const group = find(this.state.campaignGroups, params.campaignGroupId!, 'campaign group');
    const fields = objectBody(body, ['name', 'description'], []);
    if (Object.keys(fields).length === 0) throw badRequest('give at least one of name and description');
    const name = fields.name === undefined ? undefined : stringField(fields, 'name');
    const description = fields.description === undefined ? undefined : stringField(fields, 'description');
    if (group.name === s.RESERVED_GROUP_NAME) throw badRequest(`the ${s.RESERVED_GROUP_NAME} group cannot be edited`);
    if (name !== undefined && name.trim() === s.RESERVED_GROUP_NAME) throw badRequest(`"${s.RESERVED_GROUP_NAME}" is a reserved group name`);
    if (name !== undefined && name.trim() === '') throw badRequest('name must not be empty');
    if (name !== undefined) group.name = name;
    if (description !== undefined) group.description = description;
    group.updatedAt = this.now().toISOString();
    this.changed();
    return answer(s.group, group);
  }

  private workflowNode(workflowId: string, nodeId: string): s.WorkflowNode {
    const workflow = find(this.state.workflows, workflowId, 'workflow');
    const node = workflow.nodes.find((candidate) => candidate.id === nodeId);
    if (node === undefined) throw notFound(`node ${nodeId} not found in workflow ${workflowId}`);
    return { ...node, workflowRevisionId: workflow.workflowRevisionId };
  }

  /** A new cuid-shaped id; derived from a counter kept in the state, so runs are repeatable. */
  private newId(): string {
    this.state.sequence += 1;
    return seedId(`created/${this.state.sequence}`);
  }

  private changed(): void {
    this.options.onChange?.(this.state);
  }
}

function authenticate(authorization: string | undefined): KeyFeatures {
  const match = /^Bearer (.+)$/.exec(authorization ?? '');
  if (match === null) throw new ApiFailure(401, 'Missing API key: send it as "Authorization: Bearer <key>"');
  const features = Object.hasOwn(SANDBOX_KEYS, match[1]!) ? SANDBOX_KEYS[match[1]!] : undefined;
  if (features === undefined) throw new ApiFailure(401, 'Invalid API key');
  return features;
}

function noSendingDomain(): ApiFailure {
  return badRequest('No sending domain is configured for this team');
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function parseBody(request: ApiRequest): unknown {
  if (request.body.trim() === '') return undefined;
  try {
    return JSON.parse(request.body);
  } catch {
    throw badRequest('the request body is not valid JSON');
  }
}

/** The body as an object holding only the allowed fields and every required one. */
function objectBody(body: unknown, allowed: string[], required: string[]): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('the request body must be a JSON object');
  const unknown = Object.keys(body).filter((key) => !allowed.includes(key));
  if (unknown.length > 0) throw badRequest(`unknown field${unknown.length === 1 ? '' : 's'} in the request body: ${unknown.join(', ')}`);
  const missing = required.filter((key) => !(key in body));
  if (missing.length > 0) throw badRequest(`missing field${missing.length === 1 ? '' : 's'} in the request body: ${missing.join(', ')}`);
  return body as Record<string, unknown>;
}

function stringField(fields: Record<string, unknown>, key: string): string {
  const value = fields[key];
  if (typeof value !== 'string') throw badRequest(`${key} must be a string`);
  return value;
}

function find<T extends { id: string }>(items: T[], id: string, noun: string): T {
  const found = items.find((item) => item.id === id);
  if (found === undefined) throw notFound(`${noun} ${id} not found`);
  return found;
}

/** Checks an answer against the strict form of the client's schema; a mismatch is a sandbox bug. */
function answer(schema: z.ZodType, body: unknown, status = 200, headers?: Record<string, string>): ApiAnswer {
  const result = strictFormOf(schema).safeParse(body);
  if (!result.success) throw new Error(`the sandbox built an answer the client would refuse: ${result.error.message}`);
  return { status, body, headers };
}

const encodeCursor = (id: string) => Buffer.from(id, 'utf8').toString('base64url');
const decodeCursor = (cursor: string) => Buffer.from(cursor, 'base64url').toString('utf8');

/**
 * One page of a collection kept in creation order, most recent first. A cursor names the first
 * item of the page it leads to; one that names no item is refused.
 */
function listAnswer<T extends { id: string }>(item: z.ZodType, inCreationOrder: T[], query: URLSearchParams): ApiAnswer {
  const perPage = pageSize(query.get('perPage'));
  const items = [...inCreationOrder].reverse();
  const cursor = query.get('cursor');
  let start = 0;
  if (cursor !== null) {
    const id = decodeCursor(cursor);
    start = items.findIndex((candidate) => candidate.id === id);
    if (start < 0 || encodeCursor(id) !== cursor) throw badRequest(`invalid cursor: "${cursor}"`);
  }
  const data = items.slice(start, start + perPage);
  const next = items[start + perPage];
  const nextCursor = next === undefined ? null : encodeCursor(next.id);
  const pagination = {
    totalResults: items.length,
    returnedResults: data.length,
    perPage,
    totalPages: Math.ceil(items.length / perPage),
    nextCursor,
    nextPage: nextCursor === null ? null : `?perPage=${perPage}&cursor=${nextCursor}`,
  };
  return answer(s.pageOf(item), { pagination, data });
}

function pageSize(raw: string | null): number {
  if (raw === null) return 20;
  const size = Number(raw);
  if (!/^\d+$/.test(raw) || size < PER_PAGE_MIN || size > PER_PAGE_MAX) {
    throw badRequest(`perPage must be a whole number from ${PER_PAGE_MIN} to ${PER_PAGE_MAX}, not "${raw}"`);
  }
  return size;
}

/** The list shows the record without the draft's content revision, which only create and draft name. */
function listedTransactional({ record }: StoredTransactional): s.TransactionalEmail & { id: string } {
  const { draftEmailMessageContentRevisionId: _revision, ...listed } = record;
  return listed;
}

function workflowSummary(workflow: StoredWorkflow): s.WorkflowSummary {
  return { id: workflow.id, name: workflow.name, createdAt: workflow.createdAt, updatedAt: workflow.updatedAt };
}

/** The fields the simplified view shows for each node type, as the published description lists them. */
const SIMPLIFIED_FIELDS: Partial<Record<s.KnownNodeType, string[]>> = {
  EventTrigger: ['eventName', 'reEligible'],
  ContactPropertyTrigger: ['contactPropertyQuery', 'reEligible'],
  AddToListTrigger: ['mailingListId', 'reEligible'],
  TimerAction: ['amount', 'unit'],
  SendEmailAction: ['emailMessageId', 'subject'],
  ExperimentBranchNode: ['samplingRate'],
  VariantNode: ['isControl'],
};

function simplifiedWorkflow(workflow: StoredWorkflow): s.Workflow {
  const nodes = Object.fromEntries(
    workflow.nodes.map((node) => {
      const shown = s.isKnownNodeType(node.typeName) ? (SIMPLIFIED_FIELDS[node.typeName] ?? []) : [];
      const simplified: Record<string, unknown> = { typeName: node.typeName, nextNodeIds: node.nextNodeIds };
      for (const key of shown) if (node[key] !== undefined) simplified[key] = node[key];
      return [node.id, simplified];
    }),
  );
  const { createdAt: _created, updatedAt: _updated, nodes: _full, ...fields } = workflow;
  return { ...fields, nodes } as s.Workflow;
}
