/**
 * How this copy of loopsctl was installed, which decides how it is upgraded: the single
 * executable (install.sh), a package that npm installed, or a clone built by hand.
 */
import { join } from 'node:path';
import { shellWord } from '../render/shell-word.js';

export type InstallMethod = 'executable' | 'npm' | 'clone';

export interface Installation {
  method: InstallMethod;
  /** The directory of the package (with bin/, dist/), or of the executable. */
  directory: string;
  /** The version of the Node that runs it (the executable's own). */
  node: string;
  /** For npm, the prefix of an install into a project or a folder of its own (npm install --prefix), not the global one. */
  npmPrefix?: string;
}

const INSTALL_SCRIPT = 'https://github.com/loopsctl/loopsctl/releases/latest/download/install.sh';

/**
 * The command that brings the latest version to this copy, where it is: install.sh into the
 * directory the executable is in (when not its default, ~/.local/bin), npm into the same prefix.
 * Without an installation (run in-process), a global npm install.
 */
export function upgradeCommand(installation: Installation | undefined, home: string | undefined): string {
  if (installation?.method === 'executable') {
    const elsewhere = home === undefined || installation.directory !== join(home, '.local', 'bin');
    return `curl -fsSL ${INSTALL_SCRIPT} | ${elsewhere ? `LOOPSCTL_INSTALL_DIR=${shellWord(installation.directory)} ` : ''}sh`;
  }
  if (installation?.method === 'clone') return 'git pull && npm ci && npm run build';
  if (installation?.npmPrefix !== undefined) return `npm install --prefix ${shellWord(installation.npmPrefix)} loopsctl@latest`;
  return 'npm install --global loopsctl@latest';
}
