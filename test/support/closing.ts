/** What tests open (servers, sandboxes), closed when a hook of vitest's runs. */
import type { afterAll, afterEach } from 'vitest';

type Closable = { close(): Promise<void> };

/**
 * The function returned keeps what it is given, and all it kept is closed when `hook` runs:
 * afterEach, or afterAll for a file whose tests run at once, each with servers of its own.
 */
export function closedAfter(hook: typeof afterEach | typeof afterAll): <Kept extends Closable>(kept: Kept) => Kept {
  const open: Closable[] = [];
  hook(async () => {
    await Promise.all(open.splice(0).map((kept) => kept.close()));
  });
  return (kept) => {
    open.push(kept);
    return kept;
  };
}
