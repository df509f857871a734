/** Node's built-ins that commands load on first use come through builtinModule (src/base/builtin.ts) alone. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinModule } from '../../../src/base/builtin.js';

describe('builtinModule', () => {
  it("is Node's own module", async () => {
    expect(builtinModule('node:path')).toBe(await import('node:path').then((module) => module.default));
  });

  it('is the one place of the source that calls process.getBuiltinModule', () => {
    const src = resolve(import.meta.dirname, '../../../src');
    const direct = readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && file !== join('base', 'builtin.ts'))
      .filter((file) => readFileSync(join(src, file), 'utf8').includes('getBuiltinModule'));
    expect(direct).toEqual([]);
  });
});
