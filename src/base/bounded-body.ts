/**
 * A Fetch body read whole only when it is small: from its declared size first, then as it comes,
 * so that a body over the bound is never read past it.
 */

/** The body's bytes if it holds at most `limit` bytes; undefined (the rest left unread, the stream cancelled) otherwise. */
export async function boundedBody(body: ReadableStream<Uint8Array> | null, headers: Headers, limit: number): Promise<Buffer | undefined> {
  if (Number(headers.get('content-length') ?? 0) > limit) {
    await body?.cancel().catch(() => {});
    return undefined;
  }
  if (body === null) return Buffer.alloc(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
