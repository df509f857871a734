import { describe, expect, it } from 'vitest';
import { run } from '../support/main.js';

describe('the in-process harness', () => {
  it('runs a command against the sandbox with captured output', async () => {
    const result = await run(['--sandbox', 'themes', 'list', '--json']);
    expect(result.code).toBe(0);
    expect(result.json<{ name: string }[]>().length).toBeGreaterThan(3);
  });
});
