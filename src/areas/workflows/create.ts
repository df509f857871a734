import { UsageError } from '../../base/errors.js';
import { checkId } from '../../api/ids.js';
import { handler, type Handler } from '../../core/capabilities.js';
import * as api from './client.js';
import { graphChanges } from './render.js';
import { presentChange } from './edit.js';

export const create: Handler<[], { name: string; description?: string; list?: string }> = handler(['out', 'client'], async (context, _args, options) => {
  if (options.name.trim() === '') throw new UsageError('--name must not be empty');
  if (options.list !== undefined) checkId(options.list, 'mailing list id');
  const body = {
    name: options.name,
    ...(options.description === undefined ? {} : { description: options.description }),
    ...(options.list === undefined ? {} : { mailingListId: options.list }),
  };
  const created = await api.createWorkflow(await context.client(), body);
  await presentChange(context, created, {
    summary: `Created workflow ${created.id}.`,
    workflow: created,
    changes: graphChanges(undefined, created),
    revision: created.workflowRevisionId,
  });
});
