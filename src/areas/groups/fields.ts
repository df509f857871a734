/** The body of a group's create or update, from --name and --description: one rule for both kinds of group. */
import type { CreateGroupBody, UpdateGroupBody } from './client.js';

export interface GroupOptions {
  name?: string;
  description?: string;
}

/** Only the fields given (the declaration asks for at least one). */
export function updateGroupBody(options: GroupOptions): UpdateGroupBody {
  const body: UpdateGroupBody = {};
  if (options.name !== undefined) body.name = options.name;
  if (options.description !== undefined) body.description = options.description;
  return body;
}

export function createGroupBody(options: GroupOptions & { name: string }): CreateGroupBody {
  return options.description === undefined ? { name: options.name } : { name: options.name, description: options.description };
}

/** Hints for the failures the group operations document. */
export const GROUP_REFUSED = {
  400: 'the name may be the reserved "Unsorted", or the group may be the Unsorted group, which cannot be edited',
};
