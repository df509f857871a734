/**
 * The `pg` client, imported statically here so that the build can give it a bundle of its own
 * (dist/vendor/pg.cjs, which the CLI and loopsctl/webhooks share): postgres.ts import()s this
 * module, and with it pg, only when a postgres:// store opens.
 */
import pg from 'pg';

export default pg;
