/**
 * One state file shared by a running `loopsctl sandbox` and `--sandbox` commands, at the demo's
 * size and grown past the size from which it is read a slice at a time: the same answers whichever
 * process asks and however large the state, and no write lost when both write at once.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeState } from '../../../../src/emulator/state/index.js';
import { firstLine } from '../../../support/listening.js';
import { BIN, type CliResult, runCli, spawnCli, tempConfigDir } from '../../../support/run-cli.js';
import { seedState } from '../../../support/sandbox.js';

/** Contacts added to the demo's for the large state: some 3 MB, past the 512 KB from which a file is read a slice at a time. */
const ADDED_CONTACTS = 5_000;

const servers: ChildProcessWithoutNullStreams[] = [];
afterAll(() => {
  for (const server of servers.splice(0)) if (server.exitCode === null) server.kill('SIGKILL');
});

/** A config dir whose sandbox state is the demo team's, with `added` contacts more. */
function stateWith(added: number): string {
  const configDir = tempConfigDir();
  const state = seedState() as ReturnType<typeof seedState> & { contacts: { id: string; email: string }[] };
  const [first] = state.contacts;
  for (let index = 0; index < added; index += 1)
    state.contacts.push({ ...first!, id: `cadded${String(index).padStart(19, '0')}`, email: `added${index}@example.com` });
  writeState(join(configDir, 'sandbox-state.db'), state);
  return configDir;
}

/** `loopsctl sandbox` on the config dir's state file, once it printed the URL it listens on. */
function startServer(configDir: string): Promise<string> {
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--rate-limit', 'off', '--no-webhooks'], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOOPSCTL_CONFIG_DIR: configDir },
  });
  servers.push(child);
  return firstLine(child, 'loopsctl sandbox');
}

/**
 * A command against the server, and the same as a `--sandbox` command on the same state file: run
 * in this process, which is not the server's; `spawned` runs a `--sandbox` command in a process of its own.
 */
function both(configDir: string, url: string) {
  const json = (result: CliResult) => {
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    return JSON.parse(result.stdout) as unknown;
  };
  const sandbox = { LOOPSCTL_CONFIG_DIR: configDir };
  return {
    server: async (args: string[]) => json(await runCli([...args, '--json'], { env: { LOOPS_BASE_URL: url, LOOPS_API_KEY: 'sandbox-key' } })),
    inProcess: async (args: string[]) => json(await runCli(['--sandbox', ...args, '--json'], { env: sandbox })),
    spawned: async (args: string[]) => json(await spawnCli(['--sandbox', ...args, '--json'], { env: sandbox })),
  };
}

interface Served {
  configDir: string;
  url: string;
}

async function serving(configDir: string): Promise<Served> {
  return { configDir, url: await startServer(configDir) };
}

let large: Promise<Served> | undefined;

/** The large state and its server, made once for the file (the costliest to make): each test reads only what it wrote. */
function largeState(): Promise<Served> {
  large ??= serving(stateWith(ADDED_CONTACTS));
  return large;
}

describe('a sandbox state file shared by loopsctl sandbox and --sandbox commands', () => {
  it('answers the same from the demo state and from one grown past 3 MB, through the server and in process', async () => {
    const answers = new Map<number, unknown[]>();
    for (const added of [0, ADDED_CONTACTS]) {
      answers.set(added, []);
      const { configDir, url } = added === 0 ? await serving(stateWith(0)) : await largeState();
      const { server, inProcess } = both(configDir, url);
      // A contact created by each process is found by the other, as a seed contact is by both.
      await inProcess(['contacts', 'create', '--email', 'made-in-process@example.com', '--first-name', 'Ines']);
      await server(['contacts', 'create', '--email', 'made-by-server@example.com', '--first-name', 'Sam']);
      for (const email of ['ada@example.com', 'made-in-process@example.com', 'made-by-server@example.com']) {
        const found = [await server(['contacts', 'find', '--email', email]), await inProcess(['contacts', 'find', '--email', email])];
        expect(found[0]).toEqual(found[1]);
        answers.get(added)!.push(found[0]);
      }
    }
    // The large state's answers are the small one's: the same records, the same ids.
    expect(answers.get(ADDED_CONTACTS)).toEqual(answers.get(0));
    expect(JSON.stringify(answers.get(0))).toContain('made-by-server@example.com');
  });

  it('keeps every write when the server and --sandbox commands create contacts at once, each with an id of its own', async () => {
    const { configDir, url } = await largeState();
    const { server, inProcess, spawned } = both(configDir, url);
    const emails = Array.from({ length: 8 }, (_, index) => `at-once-${index}@example.com`);
    // Half through the server, half as --sandbox commands, each in a process of its own, all at once.
    const creating = emails.map((email, index) => (index % 2 === 0 ? server : spawned)(['contacts', 'create', '--email', email]));
    const created = (await Promise.all(creating)) as { id: string }[];
    expect(new Set(created.map((contact) => contact.id)).size).toBe(emails.length);
    for (const [index, email] of emails.entries()) {
      const found = [await server(['contacts', 'find', '--email', email]), await inProcess(['contacts', 'find', '--email', email])];
      expect(found[0]).toEqual(found[1]);
      expect(found[0]).toMatchObject([{ id: created[index]!.id, email }]);
    }
  });
});
