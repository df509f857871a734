import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../support/main.js';
import { githubHtml, textOfHtml } from '../../../support/markdown.js';
import { sandboxEachTest } from '../../../support/recording.js';

/** A name written as Markdown: a pipe, emphasis, a link and an image. */
const NAME = 'Footer | *v2* [Reset your password](https://evil.example/login) ![pixel](https://evil.example/p.png)';

describe('content diff --format markdown', () => {
  const openSandbox = sandboxEachTest();

  it('prints a pull request comment: a table by kind and action, then each diff in a fence no content can close', async () => {
    const sandbox = await openSandbox();
    const root = join(tempDir(), 'loops');
    const pull = await sandbox.loopsctl(['content', 'pull', root, '--only', 'components']);
    expect(pull.code, pull.stderr).toBe(0);
    const same = await sandbox.loopsctl(['content', 'diff', root, '--only', 'components', '--format', 'markdown']);
    expect(same.code, same.stderr).toBe(0);
    expect(textOfHtml(githubHtml(same.stdout))).toBe(`Content: ${root} and Acme Sandbox\nBoth hold the same content.\n`);

    const components = join(root, 'components');
    const [footer] = readdirSync(components).filter((entry) => entry.startsWith('footer'));
    const record = join(components, footer!, 'component.json');
    writeFileSync(record, JSON.stringify({ ...JSON.parse(readFileSync(record, 'utf8')), name: NAME }));
    const lmx = join(components, footer!, 'component.lmx');
    writeFileSync(lmx, `${readFileSync(lmx, 'utf8')}<Paragraph>\`\`\`\`not a fence's end</Paragraph>\n`);
    const diff = await sandbox.loopsctl(['content', 'diff', root, '--only', 'components', '--format', 'markdown']);
    expect([diff.code, diff.stderr]).toEqual([1, '']);
    const [, table, details] = diff.stdout.split(/\n\n(?=\||## Details)/);
    expect(table).toBe('| Kind | Action | Records |\n| --- | --- | ---: |\n| components | changed here | 1 |');
    // The pipe cannot split the heading's name into a cell, the asterisks make it bold, nor its link and image draw.
    const heading = githubHtml(details!.split('\n').find((line) => line.startsWith('### '))!);
    expect(heading).not.toMatch(/<(a|img|em|strong)\b/);
    expect(textOfHtml(heading).trim()).toBe(`components ${NAME}: changed here`);
    expect(details).toContain(`\n\`\`\`\`\`diff\n--- a/components/${footer}/component.json\n`);
    expect(details).toContain(
      '+<Paragraph><Link href="https://acme.example.com/preferences">Email preferences</Link></Paragraph><Paragraph>````not a fence\'s end</Paragraph>\n`````\n',
    );
  });
});
