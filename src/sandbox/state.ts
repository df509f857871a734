/**
 * Everything a sandbox account holds, and the file that keeps it between runs. The file is
 * replaced atomically (a temporary file renamed over it, see writeJsonFile), so a crash mid-write
 * leaves either the old state or the new one, never half of each.
 */
import { dirname, join } from 'node:path';
import { z } from '../api/schemas.js';
import * as s from '../api/schemas.js';
import { UsageError } from '../api/errors.js';
import { readJsonFile, UnusableFileError, writeJsonFile } from '../config/json-file.js';
import { LockTimeoutError, withFileLock, type LockOptions } from '../config/lock.js';
import { ensureDirectory } from '../config/private-dir.js';
import { configDirectory } from '../config/store.js';

const storedTransactional = z.object({
  record: s.transactionalDraftRecord.extend({ transactionalGroupId: z.string().nullable() }),
  metrics: s.transactionalMetrics,
});
export type StoredTransactional = z.infer<typeof storedTransactional>;

const storedWorkflow = z.object({
  id: z.string(),
  workflowRevisionId: z.string().nullable(),
  status: z.string(),
  name: z.string(),
  description: z.string(),
  emoji: z.string(),
  mailingListId: z.string().nullable(),
  rootNodeId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Nodes in their full form; the simplified view is derived from them. */
  nodes: z.array(s.workflowNode),
});
export type StoredWorkflow = z.infer<typeof storedWorkflow>;

export const sandboxState = z.object({
  version: z.literal(1),
  teamName: z.string(),
  /** Where a transactional email created without a group goes. */
  defaultTransactionalGroupId: z.string(),
  /** Counts the records created so far; new ids are derived from it. */
  sequence: z.number().int().nonnegative(),
  themes: z.array(s.theme),
  transactionalGroups: z.array(s.group),
  campaignGroups: z.array(s.group),
  transactionalEmails: z.array(storedTransactional),
  segments: z.array(s.audienceSegment),
  sendingIps: s.dedicatedSendingIps,
  workflows: z.array(storedWorkflow),
});
export type SandboxState = z.infer<typeof sandboxState>;

export const STATE_FILE_NAME = 'sandbox-state.json';

export function defaultStatePath(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDirectory(env), STATE_FILE_NAME);
}

/** Reads a state file, or returns undefined when there is none. */
export function readState(file: string): SandboxState | undefined {
  try {
    return readJsonFile(file, sandboxState);
  } catch (error) {
    if (error instanceof UnusableFileError) throw corruptState(file, error.message);
    throw error;
  }
}

/**
 * Writes the state (0600) under a temporary name beside the file, then renames it into place. A
 * missing directory is created 0700; an existing one (the current directory, for
 * `--state ./file.json`) is left as it is. Nothing is written when the file already holds this
 * state; returns whether it wrote.
 */
export function writeState(file: string, state: SandboxState): boolean {
  ensureDirectory(dirname(file));
  return writeJsonFile(file, state);
}

/**
 * Runs fn holding the state file's lock: wrap each read-modify-write of the file in it (readState,
 * change, writeState when something changed), so that several sandboxes sharing one file never
 * lose each other's changes. The lock file sits beside the state file, whose directory is created
 * if missing.
 */
export function withStateLock<T>(file: string, fn: () => T, options?: LockOptions): T {
  ensureDirectory(dirname(file));
  try {
    return withFileLock(file, fn, options);
  } catch (error) {
    if (!(error instanceof LockTimeoutError)) throw error;
    throw new UsageError(`the sandbox state file ${file} is locked: ${error.message}`, {
      cause: error,
      hint: `another sandbox is changing it; if none runs, remove ${error.lockFile}`,
    });
  }
}

function corruptState(file: string, reason: string): UsageError {
  return new UsageError(`the sandbox state file ${file} could not be read: ${reason}`, {
    hint: 'start over from the seed data with `loopsctl sandbox --reset`',
  });
}
