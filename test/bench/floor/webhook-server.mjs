/**
 * A webhook endpoint in a process of its own, for `npm run bench -- webhooks`: either loopsctl's
 * `webhookHandler` (dist/webhooks/) on a delivery store, or its floor, a bare node:http handler
 * that reads the body, checks the signature with one HMAC and runs one
 * `INSERT … ON CONFLICT DO NOTHING` on the same kind of store (node:sqlite in WAL mode with
 * synchronous NORMAL, as the store opens it; or a pg pool of the same size).
 *   node webhook-server.mjs <root> handler|bare <store URL> <maxConnections> <secret>
 * Sends {port} on its IPC channel once it listens; answers "cpu" with its CPU time so far (user +
 * system, µs); stops on "stop".
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [root, mode, url, maxConnections, secret] = process.argv.slice(2);
const pool = Number(maxConnections);
let listener;
let close;
if (mode === 'handler') {
  const library = await import(pathToFileURL(join(root, 'dist/webhooks/index.mjs')).href);
  const store = await library.openDeliveryStore(url, { maxConnections: pool });
  listener = library.webhookHandler({ secret, store, on: { 'email.opened': () => {}, 'email.delivered': () => {} } });
  close = () => store.close();
} else {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const sql = 'INSERT INTO bare_deliveries (webhook_id, body) VALUES ($1, $2) ON CONFLICT (webhook_id) DO NOTHING';
  let insert;
  if (url.startsWith('postgres')) {
    const pg = createRequire(import.meta.url)(join(root, 'dist/vendor/pg.cjs'));
    const clients = new (pg.default ?? pg).Pool({ connectionString: url, max: pool });
    await clients.query('CREATE TABLE IF NOT EXISTS bare_deliveries (webhook_id TEXT PRIMARY KEY, body TEXT NOT NULL)');
    insert = (id, body) => clients.query(sql, [id, body]);
    close = () => clients.end();
  } else {
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(url.replace(/^sqlite:/, ''));
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = NORMAL');
    db.exec('CREATE TABLE IF NOT EXISTS bare_deliveries (webhook_id TEXT PRIMARY KEY, body TEXT NOT NULL)');
    const statement = db.prepare(sql.replaceAll(/\$\d/g, '?'));
    insert = async (id, body) => statement.run(id, body);
    close = async () => db.close();
  }
  listener = (req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const id = req.headers['webhook-id'];
      const expected = createHmac('sha256', key).update(`${id}.${req.headers['webhook-timestamp']}.${body}`).digest();
      const given = Buffer.from(String(req.headers['webhook-signature']).split(',')[1] ?? '', 'base64');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return res.writeHead(401).end();
      await insert(id, body);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  };
}
const server = createServer(listener);
server.keepAliveTimeout = 60_000;
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
process.send({ port: server.address().port });
process.on('message', async (message) => {
  if (message === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send({ cpu: user + system });
  } else if (message === 'stop') {
    server.closeAllConnections();
    server.close();
    await close();
    process.disconnect();
  }
});
