/**
 * The resources described whole by their rows (operation-row.ts, RecordResource), one line each:
 * adding one is its folder under src/platform/ and its line here (docs/development.md, "Adding a
 * resource"). operations.ts lists them among the other rows, in the order of their nouns.
 */
export { CAMPAIGN_GROUP } from './campaign-groups/resource.js';
