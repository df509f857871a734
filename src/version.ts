import { readFileSync } from 'node:fs';

/**
 * The package version, read from package.json (one level above both src/ and dist/) directly:
 * through require() it costs more at start-up.
 */
export const VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
