/** A push's Guardian note names what a rule found by name: the property without a fallback, not only the rule. */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, tempDir } from '../../../support/main.js';

describe("a push's Guardian warning", () => {
  it('names the property it is about', async () => {
    const config = tempDir();
    const root = join(tempDir('loopsctl-content-'), 'loops');
    const loopsctl = (args: string[]) => run(['--sandbox', ...args], { env: { LOOPSCTL_CONFIG_DIR: config } });
    const pull = await loopsctl(['content', 'pull', root, '--only', 'campaigns']);
    expect(pull.code, pull.stderr).toBe(0);
    const drafts = readdirSync(join(root, 'campaigns'));
    expect(drafts.length).toBeGreaterThan(0);
    // Every pulled campaign greets with {contact.plan}, which none has a fallback for; whichever is a draft takes it.
    for (const draft of drafts) writeFileSync(join(root, 'campaigns', draft, 'email.lmx'), '<Paragraph>Your plan: {contact.plan}</Paragraph>\n');
    const push = await loopsctl(['content', 'push', root, '--only', 'campaigns']);
    expect(push.stdout).toMatch(/updated\s+campaigns\/\S+\s+Guardian: 1 warning: Contact property without fallback \(plan\)/);
  });
});
