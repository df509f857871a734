/**
 * `deliveries prune`: the deliveries older than a time removed from the journal, with their claims
 * and forwards, in short transactions (the store's PRUNE_BATCH each) that hold up no delivery an
 * app's handler records meanwhile. The daily counts of `deliveries stats` stay. Destructive: it
 * asks on a terminal and needs --yes otherwise; --dry-run says how many it would remove.
 */

import { instantOf } from '../../base/instant.js';
import { type Handler, handler } from '../../core/capabilities.js';
import { confirm } from '../../core/prompt.js';
import { openStore } from '../webhooks-shared/store-option.js';

interface PruneOptions {
  olderThan: string;
  store?: string;
  dryRun?: boolean;
  yes?: boolean;
}

const deliveries = (count: number) => `${count} ${count === 1 ? 'delivery' : 'deliveries'}`;

export const prune: Handler<[], PruneOptions> = handler(['out', 'clock', 'env', 'prompts'], async (context, _args, options) => {
  const { out, runtime } = context;
  const before = new Date(instantOf(options.olderThan, '--older-than', runtime.now(), 'start'));
  const store = await openStore(context, options);
  try {
    const count = await store.count({ until: before });
    if (options.dryRun || count === 0) {
      if (out.json) return await out.writeJson({ before: before.toISOString(), count, removed: 0 });
      return await out.write(`${deliveries(count)} older than ${before.toISOString()}${options.dryRun ? ' would be removed' : ': nothing to remove'}\n`);
    }
    await confirm(
      runtime,
      `Remove ${deliveries(count)} older than ${before.toISOString()} from ${store.location}? Their counts in deliveries stats stay`,
      options.yes,
    );
    const removed = await store.prune(before);
    if (out.json) return await out.writeJson({ before: before.toISOString(), count, removed });
    await out.write(`Removed ${deliveries(removed)} older than ${before.toISOString()}.\n`);
  } finally {
    await store.close();
  }
});
