// One request through undici (as the original stack made it), the body printed as received: the
// cost http-one.cjs is measured against in `npm run bench -- stack`.
const { request } = require('undici');

request(process.argv[2], { headers: { authorization: `Bearer ${process.env.LOOPS_API_KEY}` } })
  .then(({ body }) => body.text())
  .then((text) => process.stdout.write(text));
