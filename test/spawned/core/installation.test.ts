/**
 * How a copy of the npm package knows where it was installed, and so how `doctor` says to upgrade
 * it: the package copied into a project's node_modules (as `npm install --prefix` puts it), and
 * into a global prefix's lib/node_modules.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { releaseFeedForTests } from '../../support/release-feed.js';
import { tempDir } from '../../support/temp.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const feed = releaseFeedForTests();
/** The feed's wait, in seconds: what is tested is the hint, which a loaded machine's slow start must not cut off at the 1.5 s a person waits. */
const UNHURRIED = '100';

/** The package's files (bin/, dist/, package.json) copied into node_modules/loopsctl under the folder. */
function installInto(folder: string): string {
  const directory = join(folder, 'node_modules', 'loopsctl');
  mkdirSync(directory, { recursive: true });
  for (const part of ['bin', 'dist', 'package.json']) cpSync(join(ROOT, part), join(directory, part), { recursive: true });
  return join(directory, 'bin', 'loopsctl.js');
}

async function upgradeHint(bin: string): Promise<string | undefined> {
  const config = tempDir();
  const { stdout } = await promisify(execFile)(process.execPath, [bin, '--sandbox', 'doctor', '--json'], {
    env: {
      PATH: process.env.PATH,
      HOME: config,
      LOOPSCTL_CONFIG_DIR: config,
      XDG_CACHE_HOME: join(config, 'cache'),
      LOOPSCTL_UPDATE_URL: feed.url(),
      LOOPSCTL_UPDATE_TIMEOUT: UNHURRIED,
    },
  });
  return (JSON.parse(stdout).checks as { name: string; hint?: string }[]).find(({ name }) => name === 'update')?.hint;
}

describe('an npm install', () => {
  it('into a prefix of its own is upgraded with npm install --prefix there', async () => {
    const prefix = tempDir();
    writeFileSync(join(prefix, 'package.json'), '{"dependencies":{"loopsctl":"*"}}');
    expect(await upgradeHint(installInto(prefix))).toBe(`upgrade with: npm install --prefix ${prefix} loopsctl@latest`);
  });

  it('into the global prefix is upgraded with npm install --global', async () => {
    const prefix = tempDir();
    expect(await upgradeHint(installInto(join(prefix, 'lib')))).toBe('upgrade with: npm install --global loopsctl@latest');
  });
});
