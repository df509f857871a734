/** Group names the API refuses, checked while arguments are parsed, before anything loads or is sent. */

/** The name no group may take, and the group that cannot be edited. */
export const RESERVED_GROUP_NAME = 'Unsorted';

/**
 * Characters that draw nothing: zero-width ones, joiners and marks, the soft hyphen, and the blank
 * glyphs (the Mongolian vowel separator, the braille blank, the Hangul fillers) that a name may
 * hide behind the reserved one, or be made of alone.
 */
const INVISIBLE = /[\u200b-\u200f\u2060-\u2064\ufeff\u00ad\u180e\u2800\u115f\u1160\u3164\uffa0]/g;

/** A name as a person reads it in a list: what draws nothing dropped, the spaces around it trimmed. */
function visibleName(name: string): string {
  return name.replace(INVISIBLE, '').trim();
}

export function isReservedGroupName(name: string): boolean {
  return visibleName(name) === RESERVED_GROUP_NAME;
}

/**
 * Whether a group name shows nothing: empty, only spaces, or only characters that draw none. The
 * API's reference says of a name only that it is required and not "Unsorted"; a group listed with
 * a blank name cannot be told from another nor named, so the commands (groupNameRefusal) and the sandbox
 * (groupFieldsRefusal) refuse it by this one rule.
 */
export function isBlankGroupName(name: string): boolean {
  return visibleName(name) === '';
}

/** Why the API would refuse a group name given to a command: the reserved name, or one that shows nothing. */
function groupNameRefusal(value: string): string | undefined {
  if (isBlankGroupName(value)) return 'a group name must not be empty, nor only spaces or invisible characters.';
  if (isReservedGroupName(value)) return `"${RESERVED_GROUP_NAME}" is reserved and cannot be given to a group.`;
  return undefined;
}

/** Why the API refuses a group's name (given in a create or an update), or undefined. */
export function groupFieldsRefusal(fields: { name?: string }): string | undefined {
  if (fields.name !== undefined && isReservedGroupName(fields.name)) return `"${RESERVED_GROUP_NAME}" is a reserved group name`;
  if (fields.name !== undefined && isBlankGroupName(fields.name)) return 'name must not be empty, nor only spaces or invisible characters';
  return undefined;
}

/** Why the API refuses any edit of a group: the reserved group cannot be edited. */
export function groupEditRefusal(group: { name: string }): string | undefined {
  return group.name === RESERVED_GROUP_NAME ? `the ${RESERVED_GROUP_NAME} group cannot be edited` : undefined;
}

/** The hint for the 400 a group's create or update documents. */
export const GROUP_REFUSED_HINT = 'the name may be the reserved "Unsorted", or the group may be the Unsorted group, which cannot be edited';

/** A group's fields, as a create and an update of either kind of group set them (operation-row.ts, RecordField). */
export const GROUP_FIELDS = {
  name: {
    create: `group name (not "${RESERVED_GROUP_NAME}")`,
    update: `new name (not "${RESERVED_GROUP_NAME}")`,
    required: true,
    refusal: groupNameRefusal,
    column: 'truncate',
  },
  description: { create: 'what the group holds', update: 'new description', value: 'text', absent: '', column: 'prose' },
} as const;
