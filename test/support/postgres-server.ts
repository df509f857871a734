/**
 * A real PostgreSQL server for the tests, from Debian's `postgresql` package (.ci/run installs it
 * where it is missing): made in a folder of the test file's own with initdb, listening on a port of
 * its own on 127.0.0.1 only (no Unix socket), with a password, and removed when it stops. initdb
 * refuses to run as root, as CI runs: there the server is the `postgres` user's, and the folders
 * above its own are opened to it for passing through (0711), not for reading. Where PostgreSQL is
 * not installed, the tests that need it are skipped, except in CI (CI=true), where they fail. No
 * vitest here: `npm run bench -- webhooks` starts one too (postgres.ts adds the tests' hooks).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { tempDir } from './temp.js';

export const POSTGRES_PASSWORD = 'loopsctl-test-password';

export interface Postgres {
  /** postgres://postgres:<password>@127.0.0.1:<port>/<database> */
  url(database?: string): string;
  readonly port: number;
  /** A new empty database, by name. */
  createDatabase(): Promise<string>;
  stop(): Promise<void>;
}

/** The folder of initdb and pg_ctl, or undefined where PostgreSQL is not installed. */
export function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0] !== undefined) return join(root, versions[0], 'bin');
  }
  try {
    const bin = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
    return existsSync(join(bin, 'initdb')) ? bin : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the tests that need PostgreSQL run: always in CI, which must then have it. */
export function postgresAvailable(): boolean {
  if (postgresBin() !== undefined) return true;
  if (process.env.CI === 'true') throw new Error('PostgreSQL is not installed (Debian: apt-get install postgresql): CI runs the PostgreSQL store tests');
  return false;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The uid and gid the server runs as: the postgres user's under root, else this process's own. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const [uid, gid] = ['-u', '-g'].map((flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim()));
  return { uid: uid!, gid: gid! };
}

export async function startPostgres(): Promise<Postgres> {
  const bin = postgresBin();
  if (bin === undefined) throw new Error('PostgreSQL is not installed');
  const dir = tempDir('pg-');
  const data = join(dir, 'data');
  const user = serverUser();
  const asServer = user === undefined ? {} : { uid: user.uid, gid: user.gid };
  if (user !== undefined) {
    chownSync(dir, user.uid, user.gid);
    // The folders the test run made above this one, up to the system's temporary folder: passed through, not read.
    for (let above = dirname(dir); above.startsWith(dirname(dirname(tmpdir()))) && above !== dirname(dirname(tmpdir())); above = dirname(above))
      chmodSync(above, 0o711);
  }
  const passwordFile = join(dir, 'password');
  writeFileSync(passwordFile, POSTGRES_PASSWORD, { mode: 0o600 });
  if (user !== undefined) chownSync(passwordFile, user.uid, user.gid);
  const made = spawnSync(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=scram-sha-256', `--pwfile=${passwordFile}`, '-E', 'UTF8', '--no-sync'], {
    ...asServer,
    encoding: 'utf8',
    env: { ...process.env, LC_ALL: 'C' },
  });
  if (made.status !== 0) throw new Error(`initdb failed: ${made.stderr || made.stdout}`);
  let port = 0;
  const log = join(dir, 'server.log');
  for (let attempt = 0; ; attempt += 1) {
    port = await freePort();
    const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories= -c fsync=off -c max_connections=100`;
    // -w waits for the server to say it is ready (its postmaster.pid), not for a time.
    const started = spawnSync(join(bin, 'pg_ctl'), ['-D', data, '-l', log, '-w', '-t', '120', '-o', options, 'start'], { ...asServer, stdio: 'ignore' });
    if (started.status === 0) break;
    const said = existsSync(log) ? readFileSync(log, 'utf8') : '';
    if (attempt < 2 && /could not bind|address already in use/i.test(said)) continue;
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`PostgreSQL did not start: ${said.slice(-2000)}`);
  }
  const url = (database = 'postgres') => `postgres://postgres:${POSTGRES_PASSWORD}@127.0.0.1:${port}/${database}`;
  let databases = 0;
  return {
    url,
    port,
    async createDatabase() {
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: url() });
      await client.connect();
      databases += 1;
      const name = `deliveries_${databases}`;
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return name;
    },
    async stop() {
      spawnSync(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'], { ...asServer, stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
