/** The body of a group's create or update, from --name and --description: one rule for both kinds of group. */
import { GROUP_REFUSED_HINT } from '../../platform/groups/names.js';
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
export const GROUP_REFUSED = { 400: GROUP_REFUSED_HINT };
