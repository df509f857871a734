// conf, the config store of the original stack, writes through a symlink planted at its config
// path: with config.json -> any JSON file (here another project's package.json), conf replaces
// that file with its config, key included (it resolves the link and writes to its target). The
// same plant against loopsctl's store replaces the link and leaves the target as it was. Prints
// one JSON line with both outcomes.

import { spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Conf from 'conf';

const [bin] = process.argv.slice(2);
const scratch = mkdtempSync(join(tmpdir(), 'loopsctl-conf-'));
const KEY = 'sk-bench-not-a-key';

const TARGET_TEXT = '{ "name": "another-project", "version": "1.0.0" }\n';

/** Plants config.json -> another project's package.json, in a fresh directory; returns both paths. */
function plant(name) {
  const dir = join(scratch, name);
  mkdirSync(dir, { mode: 0o700 });
  const target = join(scratch, `${name}-package.json`);
  writeFileSync(target, TARGET_TEXT);
  symlinkSync(target, join(dir, 'config.json'));
  return { dir, target };
}

function outcome({ dir, target }) {
  const text = readFileSync(target, 'utf8');
  if (text !== TARGET_TEXT) return text.includes(KEY) ? 'replaced the link’s target with the config, key included' : 'wrote through the link';
  return lstatSync(join(dir, 'config.json')).isSymbolicLink() ? 'left the link, wrote nothing' : 'replaced the link, target untouched';
}

try {
  const conf = plant('conf');
  // The options that come closest to refusing a link: none of conf's options does.
  new Conf({ cwd: conf.dir, configName: 'config', projectName: 'loopsctl', atomic: true, configFileMode: 0o600 }).set('profiles', { default: { apiKey: KEY } });
  const ours = plant('loopsctl');
  const login = spawnSync(process.execPath, [bin, 'auth', 'login', '--with-key-stdin', '--skip-verify', '--insecure-storage'], {
    env: { PATH: process.env.PATH, HOME: scratch, LOOPSCTL_CONFIG_DIR: ours.dir },
    input: KEY,
    encoding: 'utf8',
  });
  if (login.status !== 0) throw new Error(`loopsctl auth login failed: ${login.stderr}`);
  process.stdout.write(`${JSON.stringify({ conf: outcome(conf), loopsctl: outcome(ours) })}\n`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
