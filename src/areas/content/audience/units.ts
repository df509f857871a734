/**
 * The audience half's writes in a plan file (`content push --plan --out`): each as the request the
 * single command sends (`segments create`, `groups update`, `contact-properties create`), built by
 * the same client code and held instead of sent, so that `loopsctl apply` plays it as it plays a
 * held request of `groups create --plan` (change/request-calls.ts): a group's update guarded by the
 * digest of the group as read now (one changed since is a conflict), a create by the account's
 * namesakes just before it is sent, each journaled and undoable as such.
 */
import type { ApiClient } from '../../../api/client.js';
import type { HttpRequest } from '../../../api/http.js';
import { type RequestUnit, requestUnit } from '../../change/request-calls.js';
import { type AudienceWrite, sendWrite } from './remote.js';

/** A write stopped where it would have been sent, with the request it would have sent. */
class HeldWrite extends Error {
  constructor(readonly req: HttpRequest) {
    super(`${req.method} ${req.path} held for a plan`);
  }
}

/** The request a write would send, built by the code that sends it, and not sent. */
async function requestOf(client: ApiClient, write: AudienceWrite): Promise<HttpRequest> {
  const holding = Object.create(client) as ApiClient;
  holding.answer = async (req, schema) => {
    if (req.method === 'GET') return client.answer(req, schema);
    throw new HeldWrite(req);
  };
  try {
    await sendWrite(holding, write);
  } catch (error) {
    if (error instanceof HeldWrite) return error.req;
    throw error;
  }
  throw new Error(`${write.op} sent no request`);
}

/** The plan's units of the audience writes, one per request, in the order the push sends them. */
export async function audienceUnits(client: ApiClient, writes: readonly AudienceWrite[]): Promise<RequestUnit[]> {
  const units: RequestUnit[] = [];
  for (const write of writes) units.push(await requestUnit(client, await requestOf(client, write)));
  return units;
}
