import { UsageError } from '../../base/errors.js';
import { type Handler, handler } from '../../core/capabilities.js';
import { MailingListNames } from '../lists/names.js';
import * as api from './client.js';
import { presentChange } from './edit.js';
import { graphChanges } from './render.js';

export const create: Handler<[], { name: string; description?: string; list?: string }> = handler(['out', 'client'], async (context, _args, options) => {
  if (options.name.trim() === '') throw new UsageError('--name must not be empty');
  const listId = options.list === undefined ? undefined : await new MailingListNames(() => context.client()).idOf(options.list, '--list');
  const body = {
    name: options.name,
    ...(options.description === undefined ? {} : { description: options.description }),
    ...(listId === undefined ? {} : { mailingListId: listId }),
  };
  const created = await api.createWorkflow(await context.client(), body);
  await presentChange(context, created, {
    summary: `Created workflow ${created.id}.`,
    workflow: created,
    changes: graphChanges(undefined, created),
    revision: created.workflowRevisionId,
  });
});
