/**
 * How this copy of loopsctl was installed, which decides how it is upgraded: the single
 * executable (install.sh), a package that npm installed, or a clone built by hand.
 */
export type InstallMethod = 'executable' | 'npm' | 'clone';

export interface Installation {
  method: InstallMethod;
  /** The directory of the package (with bin/, dist/), or of the executable. */
  directory: string;
  /** The version of the Node that runs it (the executable's own). */
  node: string;
}

const INSTALL_SCRIPT = 'https://github.com/loopsctl/loopsctl/releases/latest/download/install.sh';

/** The command that brings the latest version, for the way it was installed. */
export function upgradeCommand(method: InstallMethod): string {
  if (method === 'executable') return `curl -fsSL ${INSTALL_SCRIPT} | sh`;
  if (method === 'clone') return 'git pull && npm ci && npm run build';
  return 'npm install --global loopsctl@latest';
}
