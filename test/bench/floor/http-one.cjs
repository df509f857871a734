// The floor for a single request: Node's own http module, the body printed as received.
const { request } = require('node:http');

request(process.argv[2], { headers: { authorization: `Bearer ${process.env.LOOPS_API_KEY}` } }, (response) => {
  const chunks = [];
  response.on('data', (chunk) => chunks.push(chunk));
  response.on('end', () => process.stdout.write(Buffer.concat(chunks)));
}).end();
