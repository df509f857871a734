/** What the `contact-properties` commands do. */
import { UsageError } from '../../base/errors.js';
import { type Handler, handler } from '../../core/capabilities.js';
import { explained } from '../../core/explain.js';
import { writeArrayList } from '../../core/list-run.js';
import type { PropertyType } from '../../platform/contact-properties/schemas.js';
import { PROPERTY_NAME } from '../../platform/contact-properties/typing.js';
import { createContactProperty, listContactProperties } from './client.js';
import { propertyListView } from './render.js';

export const list: Handler<[], { custom?: boolean; jsonl?: boolean }> = handler(['out', 'client'], async (context, _args, options) => {
  const properties = await listContactProperties(await context.client(), options.custom ? 'custom' : 'all');
  await writeArrayList(context, properties, propertyListView, options.jsonl);
});

export const create: Handler<[], { name: string; type: PropertyType }> = handler(['out', 'client'], async (context, _args, options) => {
  // The API wants camelCase names; saying so here saves a round trip.
  if (!PROPERTY_NAME.test(options.name)) throw new UsageError(`--name "${options.name}": use a camelCase name, such as planName`);
  const created = await explained(createContactProperty(await context.client(), { name: options.name, type: options.type }), {
    statuses: {
      400: (message) =>
        /already exists/i.test(message)
          ? `the account has a property ${options.name} already; see its type with \`loopsctl contact-properties list --custom\``
          : undefined,
    },
  });
  await context.out.present(created, () => `Created the ${options.type} property ${options.name}\n`);
});
