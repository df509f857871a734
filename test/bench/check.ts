/**
 * `loopsctl --sandbox check` of an account with CHECK_MESSAGES email messages: CHECK_MESSAGES / 2
 * transactional emails, each with a draft and a published version, the published one also checked
 * by Guardian. The requests are paced (10 a second), so the check can take no less than its
 * requests at that pace: the run's wall time is compared with that floor, its requests counted
 * from `--debug`.
 */
import { join } from 'node:path';
import type { StateCore } from '../../src/emulator/module.js';
import { readState, writeState } from '../../src/emulator/state/index.js';
import { type Command, run } from './measure.js';

export const CHECK_MESSAGES = Number(process.env.BENCH_CHECK_MESSAGES ?? 2_000);
const REQUESTS_PER_SECOND = 10;

interface StoredTransactional {
  record: { id: string; name: string; draftEmailMessageId: string | null; publishedEmailMessageId: string | null };
}
interface StoredMessage {
  message: { id: string; transactionalId?: string };
  parent: { kind: string; id: string; published: boolean };
}

/** The demo state's "Welcome" copied until the account holds CHECK_MESSAGES more messages. */
function growState(file: string): void {
  const state = { ...readState(file)! } as StateCore & { transactionalEmails: StoredTransactional[]; emailMessages: StoredMessage[] };
  const welcome = state.transactionalEmails.find((email) => email.record.name === 'Welcome')!;
  const published = state.emailMessages.find((stored) => stored.message.id === welcome.record.publishedEmailMessageId)!;
  for (let index = 0; index < CHECK_MESSAGES / 2; index += 1) {
    const id = `cbenchcheck${String(index).padStart(14, '0')}`;
    const message = (version: 'd' | 'p'): StoredMessage => ({
      message: { ...structuredClone(published.message), id: `${id.slice(0, -1)}${version}`, transactionalId: id },
      parent: { kind: 'transactional', id, published: version === 'p' },
    });
    const draft = message('d');
    const live = message('p');
    state.transactionalEmails.push({
      ...structuredClone(welcome),
      record: {
        ...structuredClone(welcome.record),
        id,
        name: `Bench ${index}`,
        draftEmailMessageId: draft.message.id,
        publishedEmailMessageId: live.message.id,
      },
    });
    state.emailMessages.push(draft, live);
  }
  writeState(file, state);
}

export interface CheckFigure {
  elapsed: number;
  floor: number;
  requests: number;
}

export async function measureCheck(bin: string, scratch: string, env: Record<string, string>): Promise<CheckFigure> {
  const configDir = join(scratch, 'sandbox-check');
  const command: Command = { label: 'check', args: [bin, '--sandbox', '--debug', 'check', '--json'], env: { LOOPSCTL_CONFIG_DIR: configDir } };
  // The first run makes the demo state, with every slice the check reads.
  await run(command, env);
  growState(join(configDir, 'sandbox-state.db'));
  console.error(`check of an account with ${CHECK_MESSAGES} more email messages (paced: some ${Math.round((CHECK_MESSAGES * 1.5) / REQUESTS_PER_SECOND)} s)…`);
  const result = await run(command, env);
  const requests = result.stderr.split('\n').filter((line) => line.startsWith('> GET ')).length;
  const problems = JSON.parse(result.stdout) as { rule: string }[];
  if (problems.some((problem) => problem.rule === 'not-checked')) throw new Error('the check could not read the whole account');
  if (requests < CHECK_MESSAGES) throw new Error(`the check made ${requests} requests, fewer than the account's ${CHECK_MESSAGES} messages`);
  return { elapsed: result.ms, floor: ((requests - 1) / REQUESTS_PER_SECOND) * 1000, requests };
}
