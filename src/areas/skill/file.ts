/**
 * Where the shipped SKILL.md is: skills/loopsctl/ in the package. The build replaces this module
 * with one that finds it from dist/ (src/build/build.mjs).
 */
import { fileURLToPath } from 'node:url';

export function skillFile(): string {
  return fileURLToPath(new URL('../../../skills/loopsctl/SKILL.md', import.meta.url));
}
