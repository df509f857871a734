/**
 * The floor the emulator is measured against: a bare node:http server that reads each request's
 * JSON body and answers the JSON the emulator answered to the same method and path (from a file of
 * `{"<METHOD> <path>": {"status", "body"}}`; anything else is a 404).
 *   node http-server.mjs <answers file> one     listens, answers one request, stops; prints {"startMs"}
 *   node http-server.mjs <answers file> serve   prints {"url"}, serves until stdin ends
 * startMs is the time of `createServer().listen()`.
 */
import { readFileSync } from 'node:fs';
import { createServer, request } from 'node:http';

const [file, mode] = process.argv.slice(2);
const answers = JSON.parse(readFileSync(file, 'utf8'));
const started = performance.now();
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const text = Buffer.concat(chunks).toString('utf8');
    if (text !== '') JSON.parse(text);
    const { status, body } = answers[`${req.method} ${req.url}`] ?? { status: 404, body: { message: 'no such path' } };
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const startMs = performance.now() - started;
const url = `http://127.0.0.1:${server.address().port}`;
if (mode === 'one') {
  await new Promise((resolve, reject) => {
    request(`${url}/v1/contacts/find?email=ada%40example.com`, (response) => response.resume().on('end', resolve))
      .on('error', reject)
      .end();
  });
  server.close();
  process.stdout.write(JSON.stringify({ startMs }));
} else {
  process.stdout.write(`${JSON.stringify({ url, apiKey: 'none' })}\n`);
  process.stdin.resume().on('end', () => server.close());
}
