/**
 * Every refusal of a plan made for another account (`apply`, `undo`, `content review`, an MCP
 * server's approval) is worded in change/account.ts alone, and the three that compare the key's
 * account with the plan's say it in one sentence: what the plan was for, and what this key reaches.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../../../src/api/client.js';
import type { HttpRequest, HttpResponse } from '../../../../src/api/http.js';
import {
  type AccountWhere,
  anotherAccountsProposal,
  refuseAnotherAccount,
  refuseReviewInAnotherAccount,
  refuseUndoInAnotherAccount,
} from '../../../../src/areas/change/account.js';
import { ProtectedError } from '../../../../src/base/errors.js';
import { ExitCode } from '../../../../src/base/exit-codes.js';
import { sandboxCaller } from '../../../support/sandbox.js';

const root = join(import.meta.dirname, '../../../..');
/** Every source file, by its path in the repository. */
const sourceFiles = () =>
  readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|mts|mjs)$/.test(file))
    .map((file) => join(root, 'src', file));
const BASE_URL = 'http://127.0.0.1:1/api';

/** The sandbox's account, reached in process: its team name is the emulator's. */
const call = sandboxCaller();
const client = new ApiClient({
  send: async (request: HttpRequest): Promise<HttpResponse> => {
    const answer = call(request.method, request.path, { body: request.body });
    return { status: answer.status, headers: answer.headers ?? {}, contentType: 'application/json', text: JSON.stringify(answer.body), body: answer.body };
  },
});
const context = {
  baseUrl: async () => BASE_URL,
  credentials: async () => ({ source: 'profile' as const, profile: 'staging', key: 'sandbox-key', chosenBy: '--profile' as const }),
} as unknown as Parameters<typeof refuseAnotherAccount>[0];
const reached = (call('GET', '/v1/api-key').body as { teamName: string }).teamName;

/** A plan made on another team, and one made at another address. */
const elsewhere: AccountWhere[] = [
  { team: 'Another Team', baseUrl: BASE_URL, profile: 'production' },
  { team: reached, baseUrl: 'https://app.loops.example/api', profile: 'production' },
];

async function refusal(refused: Promise<unknown>): Promise<ProtectedError> {
  const error: unknown = await refused.catch((thrown: unknown) => thrown);
  expect(error).toBeInstanceOf(ProtectedError);
  return error as ProtectedError;
}

describe('a refusal of another account’s plan', () => {
  it('is said in one sentence by apply, undo and review: what it was for, what this key reaches, nothing sent', async () => {
    for (const planned of elsewhere) {
      const said = [
        await refusal(refuseAnotherAccount(context, client, planned, [])),
        await refusal(refuseUndoInAnotherAccount(context, client, 'chg_1', planned)),
        await refusal(refuseReviewInAnotherAccount(context, client, 'change.json', planned)),
      ];
      const sentence = ` ${planned.team} at ${planned.baseUrl}, and this key reaches ${reached} at ${BASE_URL}; nothing was sent`;
      expect(said.map((error) => error.message)).toEqual([`the plan is for${sentence}`, `chg_1 changed${sentence}`, `change.json is a plan for${sentence}`]);
      expect(said.map((error) => error.exitCode)).toEqual([ExitCode.protected, ExitCode.protected, ExitCode.protected]);
      for (const error of said) expect(error.hint).toContain(`(profile ${planned.profile})`);
    }
  });

  it('lets the plan through in the account it was made for', async () => {
    const here = { team: reached, baseUrl: BASE_URL, profile: 'staging' };
    await expect(refuseAnotherAccount(context, client, here, [])).resolves.toBeUndefined();
    await expect(refuseUndoInAnotherAccount(context, client, 'chg_1', here)).resolves.toEqual(here);
    await expect(refuseReviewInAnotherAccount(context, client, 'change.json', here)).resolves.toBeUndefined();
  });

  it('is worded in change/account.ts alone', () => {
    const proposal = anotherAccountsProposal('prop_1', 'staging');
    expect(proposal).toMatchObject({ code: 'wrong_account', exitCode: ExitCode.protected });
    expect(proposal.message).toBe('the change prop_1 was proposed for staging, not the account this server changes; nothing was sent');
    const worded = sourceFiles()
      .filter((file) => /this key reaches|not the account this server changes|is a plan for \$\{/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file));
    expect(worded).toEqual(['src/areas/change/account.ts']);
  });
});
