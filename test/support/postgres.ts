/** The PostgreSQL server of the tests (postgres-server.ts), with the hooks that start and stop it around a block. */
import { afterAll, beforeAll } from 'vitest';
import { type Postgres, startPostgres } from './postgres-server.js';

export * from './postgres-server.js';

/** A server started before the tests of the calling block and stopped after them; the getter reads it once started. */
export function postgresForBlock(): () => Postgres {
  let server: Postgres | undefined;
  beforeAll(async () => {
    server = await startPostgres();
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  });
  return () => server!;
}
