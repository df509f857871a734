// The floor for a single request: Node's global fetch, the body printed as received.
const response = await fetch(process.argv[2], { headers: { authorization: `Bearer ${process.env.LOOPS_API_KEY}` } });
process.stdout.write(await response.text());
