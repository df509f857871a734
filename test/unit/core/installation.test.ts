import { describe, expect, it } from 'vitest';
import { upgradeCommand } from '../../../src/core/installation.js';

const INSTALL = 'curl -fsSL https://github.com/loopsctl/loopsctl/releases/latest/download/install.sh |';

describe('upgradeCommand', () => {
  it("runs install.sh into the executable's own directory, naming it unless it is the default ~/.local/bin", () => {
    const executable = (directory: string) => ({ method: 'executable' as const, directory, node: '22.0.0' });
    expect(upgradeCommand(executable('/home/ada/.local/bin'), '/home/ada')).toBe(`${INSTALL} sh`);
    expect(upgradeCommand(executable('/opt/tools/bin'), '/home/ada')).toBe(`${INSTALL} LOOPSCTL_INSTALL_DIR=/opt/tools/bin sh`);
    expect(upgradeCommand(executable("/home/ada/my tools/it's"), '/home/ada')).toBe(`${INSTALL} LOOPSCTL_INSTALL_DIR='/home/ada/my tools/it'\\''s' sh`);
    expect(upgradeCommand(executable('/home/ada/.local/bin'), undefined)).toBe(`${INSTALL} LOOPSCTL_INSTALL_DIR=/home/ada/.local/bin sh`);
  });

  it('installs with npm into the same prefix: the global one, or a local one', () => {
    const npm = { method: 'npm' as const, directory: '/usr/lib/node_modules/loopsctl', node: '22.0.0' };
    expect(upgradeCommand(npm, '/home/ada')).toBe('npm install --global loopsctl@latest');
    expect(upgradeCommand({ ...npm, directory: '/srv/app/node_modules/loopsctl', npmPrefix: '/srv/app' }, '/home/ada')).toBe(
      'npm install --prefix /srv/app loopsctl@latest',
    );
    expect(upgradeCommand(undefined, '/home/ada')).toBe('npm install --global loopsctl@latest');
  });
});
