/**
 * The top-level commands' declarations (`apply`, `check`, `api`…), which src/areas/directory.ts
 * loads together, on first use: by a run that names one of them first, or that names no group
 * first (help of the program, an unknown word), which declares them all. A run whose first word
 * names a group (`loopsctl --sandbox workflow list`) makes none of them. The build keeps them in
 * the main bundle, with what they import, so that such a run reads no other bundle.
 */

export { spec as api } from './api/index.js';
export { spec as apply } from './apply/index.js';
export { spec as approve } from './approve/index.js';
export { spec as check } from './check/index.js';
export { spec as commands } from './commands/index.js';
export { spec as doctor } from './doctor/index.js';
export { spec as log } from './log/index.js';
export { spec as mcp } from './mcp/index.js';
export { spec as types } from './types/index.js';
export { spec as undo } from './undo/index.js';
