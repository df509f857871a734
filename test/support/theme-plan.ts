/** A change planned from a pulled tree: one theme's colour changed, and the plan of its push. */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { RecordingSandbox } from './recording.js';

/** The themes pulled into `directory`, the first one's colour changed, and its push planned: the theme's id and the plan file. */
export async function plannedThemeEdit(sandbox: RecordingSandbox, directory: string, env: Record<string, string> = {}): Promise<{ id: string; plan: string }> {
  const root = join(directory, 'themes-tree');
  expect((await sandbox.loopsctl(['content', 'pull', root, '--only', 'themes'], { env })).code).toBe(0);
  const theme = readdirSync(join(root, 'themes'))[0]!;
  const file = join(root, 'themes', theme, 'theme.json');
  writeFileSync(file, readFileSync(file, 'utf8').replace(/"#[0-9a-fA-F]{6}"/, '"#123456"'));
  const plan = join(directory, 'theme-change.json');
  const planned = await sandbox.loopsctl(['content', 'push', root, '--only', 'themes', '--plan', '--out', plan], { env });
  expect(planned.code, planned.stderr).toBe(0);
  return { id: theme.slice(theme.lastIndexOf('--') + 2), plan };
}
