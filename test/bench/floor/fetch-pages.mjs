// The floor for a long listing: follow nextCursor page by page and print each page's items, keeping
// loopsctl's pace: no more than n requests start in any second (the second argument, else 10, the
// API's limit), page k starting no sooner than k / n whole seconds after the first.
const REQUESTS_PER_SECOND = Number(process.argv[3] ?? 10);
const headers = { authorization: `Bearer ${process.env.LOOPS_API_KEY}` };
const started = performance.now();
let cursor = null;
let page = 0;
do {
  const wait = started + Math.floor(page / REQUESTS_PER_SECOND) * 1000 - performance.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  const url = new URL(process.argv[2]);
  url.searchParams.set('perPage', '50');
  if (cursor !== null) url.searchParams.set('cursor', cursor);
  const body = await (await fetch(url, { headers })).json();
  process.stdout.write(`${JSON.stringify(body.data)}\n`);
  cursor = body.pagination.nextCursor;
  page += 1;
} while (cursor !== null);
