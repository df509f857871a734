import { UsageError } from '../../base/errors.js';
import { type Handler, handler } from '../../core/capabilities.js';
import * as api from './client.js';
import { presentChange, type RevisionOption, send, startEdit } from './edit.js';
import { graphChanges } from './render.js';

export const update: Handler<[string], RevisionOption & { name?: string; description?: string }> = handler(
  ['out', 'client', 'globals'],
  async (context, [id], options) => {
    const fields = {
      ...(options.name === undefined ? {} : { name: options.name }),
      ...(options.description === undefined ? {} : { description: options.description }),
    };
    if (options.name !== undefined && options.name.trim() === '') throw new UsageError('--name must not be empty');
    const edit = await startEdit(context, id, options);
    const after = await send(edit, () => api.updateWorkflow(edit.client, id, edit.revision, fields));
    await presentChange(context, after, {
      summary: `Updated workflow ${id}.`,
      workflow: after,
      changes: graphChanges(edit.before, after),
      revision: after.workflowRevisionId,
    });
  },
);
