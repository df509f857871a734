/** Where loopsctl keeps its files. Kept apart from the config store so that finding the directory loads nothing else. */
import { join } from 'node:path';
import { builtinModule } from '../base/builtin.js';

/** node:os is loaded only when a path needs it: every start would otherwise load it, for a fifth of a millisecond. */
const homedir = (): string => builtinModule('node:os').homedir();

/** LOOPSCTL_CONFIG_DIR, else the platform's usual place for a user's configuration. */
export function configDirectory(env: Record<string, string | undefined>, platform: NodeJS.Platform = process.platform): string {
  if (env.LOOPSCTL_CONFIG_DIR) return env.LOOPSCTL_CONFIG_DIR;
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'loopsctl');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Preferences', 'loopsctl');
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'loopsctl');
}

/** $XDG_CACHE_HOME/loopsctl, else the platform's usual place for a user's caches (as bin/loopsctl.js's code cache). */
export function cacheDirectory(env: Record<string, string | undefined>, platform: NodeJS.Platform = process.platform): string {
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'loopsctl');
  if (platform === 'win32') return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'loopsctl');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'loopsctl');
  return join(homedir(), '.cache', 'loopsctl');
}
