// The floor for a long listing: follow nextCursor page by page and print each page's items.
const headers = { authorization: `Bearer ${process.env.LOOPS_API_KEY}` };
let cursor = null;
do {
  const url = new URL(process.argv[2]);
  url.searchParams.set('perPage', '50');
  if (cursor !== null) url.searchParams.set('cursor', cursor);
  const page = await (await fetch(url, { headers })).json();
  process.stdout.write(`${JSON.stringify(page.data)}\n`);
  cursor = page.pagination.nextCursor;
} while (cursor !== null);
