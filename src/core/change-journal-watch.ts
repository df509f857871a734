/**
 * A run's side of the journal of changes (src/config/change-journal-files.ts): what the transport of
 * every run that may write is handed as its `watchWrite`, so that each configuration write any
 * command makes (or `apply` plays) is journaled with nothing written in the command. Before such a
 * write is sent the journal is checked (a link, a file that cannot be written: refused, nothing
 * sent); once it has its outcome, one line is appended. Reads, writes of people (contacts, events,
 * sends) and the writes --dry-run holds are not journaled.
 */
import { randomUUID } from 'node:crypto';
import { headerValue } from '../api/headers.js';
import type { HttpRequest, WriteOutcome } from '../api/http.js';
import { escapeControls } from '../base/body-preview.js';
import { builtinModule } from '../base/builtin.js';
import { LocalFileError, LoopsctlError } from '../base/errors.js';
import { redactUrl } from '../base/redact-url.js';
import { appendEntry, checkJournal, type JournalEntry } from '../config/change-journal-files.js';
import { configurationWrite, identifiersOf } from '../platform/configuration-writes.js';

/** What a run tells of itself, for its lines. */
export interface RunAccount {
  configDir: string;
  baseUrl: string;
  now: () => Date;
  /** The profile and the team, once the run knows them (asked at the first write). */
  account: () => Promise<{ profile?: string; team?: string }>;
  /** The MCP client that called the tool; the terminal's user otherwise. */
  actor?: string;
  env: Record<string, string | undefined>;
  /** The command and the local files it was given, once it runs. */
  command: () => { words: string[]; files: string[] } | undefined;
  /** The name of the record of these ids, where the command knows it and the call does not say it (an email's message). */
  nameOf?: (ids: Record<string, string>) => string | undefined;
}

/** The transport's watchWrite for a run. */
export function journalWatcher(run: RunAccount): (req: HttpRequest) => Promise<((outcome: WriteOutcome) => void) | undefined> {
  const runId = randomUUID();
  return async (req) => {
    const write = configurationWrite(req.method, req.path, requestBody(req));
    if (write === undefined) return undefined;
    checkJournal(run.configDir);
    const { profile, team } = await run.account();
    const command = run.command();
    const expected = (requestBody(req) as { expectedRevisionId?: unknown } | undefined)?.expectedRevisionId;
    return (outcome) => {
      const answer = outcome.answer === undefined ? undefined : identifiersOf(parsed(outcome.answer.text));
      const requestName = (requestBody(req) as { name?: unknown } | undefined)?.name;
      const ids = { ...write.ids, ...answer?.ids };
      const name = answer?.name ?? (typeof requestName === 'string' ? requestName : run.nameOf?.(ids));
      const accountAt = accountDate(outcome);
      const entry: JournalEntry = {
        at: run.now().toISOString(),
        ...(accountAt === undefined ? {} : { accountAt }),
        run: runId,
        ...(profile === undefined ? {} : { profile }),
        ...(team === undefined ? {} : { team }),
        baseUrl: redactUrl(run.baseUrl),
        who: run.actor ?? terminalUser(run.env),
        via: run.actor === undefined ? 'terminal' : 'mcp',
        command: command?.words.join(' ') ?? '',
        ...(command === undefined || command.files.length === 0 ? {} : { files: command.files }),
        method: req.method,
        path: req.path.split('?')[0]!,
        operation: write.operation,
        kind: write.kind,
        ids,
        revisions: { ...(typeof expected === 'string' ? { expectedRevisionId: expected } : {}), ...answer?.revisions },
        ...(name === undefined ? {} : { name }),
        ...outcomeOf(outcome),
      };
      try {
        appendEntry(run.configDir, entry);
      } catch (error) {
        const reason = error instanceof LoopsctlError ? error.message : String((error as Error).message ?? error);
        // Not the journal's refusal: this write was sent.
        throw new LocalFileError(`${req.method} ${entry.path} was sent (${entry.outcome}), but the journal of changes could not keep it: ${reason}`, {
          code: 'journal-unkept',
          cause: error,
        });
      }
    };
  };
}

/** The account's time of the answer (its Date header), ISO 8601; undefined without one that reads as a time. */
function accountDate({ answer }: WriteOutcome): string | undefined {
  const text = answer === undefined ? undefined : headerValue(answer.headers.date);
  const time = text === undefined ? Number.NaN : Date.parse(text);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

/** A request's JSON body, whether it was given as a value or as its text. */
export function requestBody(req: HttpRequest): unknown {
  if (req.body !== undefined) return req.body;
  return req.bodyText === undefined ? undefined : parsed(req.bodyText);
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** done, refused (the API said no: nothing changed) or unknown (no answer, or a server error: it may have). */
function outcomeOf({ answer, error }: WriteOutcome): Pick<JournalEntry, 'outcome' | 'status' | 'error'> {
  const status = answer?.status;
  const message = error instanceof Error ? escapeControls(error.message).slice(0, 300) : undefined;
  const described = message === undefined ? {} : { error: message };
  if (status !== undefined && status >= 200 && status < 300 && error === undefined) return { outcome: 'done', status };
  if (status !== undefined && status >= 400 && status < 500) return { outcome: 'refused', status, ...described };
  return { outcome: 'unknown', ...(status === undefined ? {} : { status }), ...described };
}

/** The user at the terminal: the system's name for the account loopsctl runs as. */
export function terminalUser(env: Record<string, string | undefined>): string {
  try {
    return builtinModule('node:os').userInfo().username;
  } catch {
    // No entry in the user database (a container's numeric user).
    return env.USER ?? env.LOGNAME ?? env.USERNAME ?? 'unknown';
  }
}
