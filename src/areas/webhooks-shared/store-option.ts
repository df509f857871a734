/**
 * `--store`: the delivery store that `webhooks listen` records in and the `deliveries` commands
 * read, the same one an app's `webhookHandler` keeps (a SQLite file, or a PostgreSQL URL). It may
 * come from LOOPS_DELIVERY_STORE instead, which keeps a database password out of shell history
 * and the process list; what loopsctl says of a store never shows its password.
 */
import { UsageError } from '../../base/errors.js';
import type { Uses } from '../../core/capabilities.js';
import type { OptionSpec } from '../../core/declare.js';
import type { DeliveryStore } from '../../webhooks/store/index.js';
import { DELIVERY_STORE_ENV } from '../../webhooks/store/store-env.js';

export const STORE_ENV = DELIVERY_STORE_ENV;

export const STORE_OPTION: OptionSpec = {
  flags: '--store <file or url>',
  description: `the delivery store: a SQLite file (sqlite:<file> or its path) or a postgres:// URL (default: ${STORE_ENV}, which keeps a password out of shell history)`,
};

/** The store the person named, or none: `listen` records only when one is named. */
export function storeUrl(context: Uses<'env'>, options: { store?: string }): string | undefined {
  const url = options.store ?? context.env[STORE_ENV];
  return url === '' ? undefined : url;
}

/** Opens the store named; a store that cannot be opened is a usage error that names it (password hidden) and says why. */
export async function openStore(context: Uses<'env'>, options: { store?: string }): Promise<DeliveryStore> {
  const url = storeUrl(context, options);
  if (url === undefined) throw new UsageError('no delivery store named', { hint: `pass --store <file or postgres URL>, or set ${STORE_ENV}` });
  const { openDeliveryStore, DeliveryStoreError } = await import('../../webhooks/store/index.js');
  try {
    return await openDeliveryStore(url);
  } catch (error) {
    if (error instanceof DeliveryStoreError) throw new UsageError(error.message, { hint: `check --store (or ${STORE_ENV})` });
    throw error;
  }
}
