/**
 * A React Email template's values read, never run: a `.map` over a list the file (or a module of
 * literals it imports) writes out in full is written once per item; a condition over a literal
 * shows its branch; a list too long is cut at its bound and listed; a module that runs code when it
 * loads is not read, and nothing of the template or its modules ever runs. With --preview-props, a
 * list the template's own PreviewProps give a prop is written out as a literal one is.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { directoryOf } from '../../../support/content-tree.js';
import { run, tempDir } from '../../../support/main.js';

const TIPS = `import { Body, Heading, Html, Link, Section, Text } from '@react-email/components';
import { links } from './links';

const tips = [
  { id: 1, title: 'Write a clear subject', description: 'Say what the email is about in a few words.' },
  { id: 2, title: 'Keep it short', description: 'One idea per email reads best.', draft: true },
  { id: 3, title: 'End with one action', description: 'A single button gets more clicks than three.' },
];
const extra = ['Test on a phone', 'Send it to yourself first'];
const showFooter = true;

export default function Tips() {
  return (
    <Html>
      <Body>
        <Heading>Tips for better emails</Heading>
        {tips.filter((tip) => !tip.draft).map((tip, index) => (
          <Section key={tip.id}>
            <Text>{index + 1}. {tip.title}</Text>
            <Text>{tip.description}</Text>
          </Section>
        ))}
        {[...extra, 'Read it aloud'].map((line) => <Text key={line}>{line}</Text>)}
        {Object.entries(links).map(([name, href]) => (
          <Link key={name} href={href}>{name}</Link>
        ))}
        {showFooter && <Text>Sent with care by Acme.</Text>}
      </Body>
    </Html>
  );
}
`;

async function convert(root: string, file: string, ...options: string[]) {
  const out = join(tempDir('loopsctl-static-out-'), 'loops');
  const result = await run(['content', 'convert', join(root, file), '--out', out, '--json', ...options]);
  const record = result.code === 0 ? JSON.parse(result.stdout).records[0] : undefined;
  const lmx = record === undefined ? '' : readFileSync(join(out, record.path, 'draft.lmx'), 'utf8');
  return { result, record, lmx };
}

describe('content convert: values read, never run', () => {
  it('writes a .map over a literal list once per item, filtered and spread, a module of literals’ values in place', async () => {
    const root = directoryOf({
      'tips.tsx': TIPS,
      'links.ts': "export const links = { Blog: 'https://acme.example/blog', Docs: 'https://acme.example/docs' } as const;\n",
    });
    const { result, record, lmx } = await convert(root, 'tips.tsx');
    expect(result.code, result.stderr).toBe(0);
    for (const line of [
      '1. Write a clear subject',
      'Say what the email is about in a few words.',
      '2. End with one action',
      'Test on a phone',
      'Send it to yourself first',
      'Read it aloud',
      'Sent with care by Acme.',
    ])
      expect(lmx).toContain(line);
    expect(lmx).not.toContain('Keep it short');
    expect(lmx).toContain('<Link href="https://acme.example/blog">Blog</Link>');
    expect(lmx).toContain('<Link href="https://acme.example/docs">Docs</Link>');
    // Nothing of it is a loop or a condition to redo by hand, nor a variable the send must give.
    expect(
      record.remediation.map((item: { construct: string }) => item.construct).filter((construct: string) => /loop|condition|expression|value/.test(construct)),
    ).toEqual([]);
    expect(record.variables).toEqual([]);
  });

  it('with --preview-props, writes a .map over a prop its PreviewProps give a list; without, lists the loop', async () => {
    const root = directoryOf({
      'steps.tsx': `import { Body, Html, Text } from '@react-email/components';
export default function Steps({ firstName, steps }: { firstName: string; steps: string[] }) {
  return (
    <Html>
      <Body>
        <Text>Hi {firstName}</Text>
        {steps.map((step) => <Text key={step}>{step}</Text>)}
      </Body>
    </Html>
  );
}
Steps.PreviewProps = { firstName: 'Ada', steps: ['Verify your domain', 'Import your contacts'] };
`,
    });
    const taken = await convert(root, 'steps.tsx', '--preview-props');
    expect(taken.result.code, taken.result.stderr).toBe(0);
    expect(taken.lmx).toContain('Verify your domain');
    expect(taken.lmx).toContain('Import your contacts');
    expect(taken.lmx).toContain('{data.firstName}');
    expect(taken.record.remediation.map((item: { construct: string }) => item.construct)).toContain('the prop steps (a list)');
    const plain = await convert(root, 'steps.tsx');
    expect(plain.lmx).not.toContain('Verify your domain');
    expect(plain.record.remediation.map((item: { construct: string }) => item.construct)).toContain('a loop in JSX (.map)');
  });

  it('cuts a list of 100,000 items at 1,000 and lists the rest', async () => {
    const items = Array.from({ length: 100_000 }, (_, index) => `'Item ${index}'`).join(',');
    const root = directoryOf({
      'long.tsx': `import { Html, Text } from '@react-email/components';\nconst items = [${items}];\nexport default function Long() {\n  return <Html>{items.map((item) => <Text key={item}>{item}</Text>)}</Html>;\n}\n`,
    });
    const { result, record, lmx } = await convert(root, 'long.tsx');
    expect(result.code, result.stderr).toBe(0);
    expect(lmx).toContain('Item 999<');
    expect(lmx).not.toContain('Item 1000<');
    expect(record.remediation.map((item: { line: number; construct: string; done: string }) => `${item.line} ${item.construct}: ${item.done}`)).toContain(
      '2 an array of more than 1,000 items: its first 1,000 items written, the rest left out',
    );
  });

  it('runs nothing: a template and a module whose loading would write a file and open a socket are read, not run', async () => {
    const marker = join(tempDir('loopsctl-static-marker-'), 'ran');
    let connections = 0;
    const server = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const effects = `import { writeFileSync } from 'node:fs';\nimport { connect } from 'node:net';\nwriteFileSync(${JSON.stringify(marker)}, 'ran');\nconnect(${port}, '127.0.0.1');\n`;
      const root = directoryOf({
        'welcome.tsx': `${effects}import { Html, Text } from '@react-email/components';\nimport { steps } from './steps';\nconst local = ['Open the app'];\nexport default function Welcome() {\n  return <Html>{local.map((step) => <Text key={step}>{step}</Text>)}{steps.map((step) => <Text key={step}>{step}</Text>)}</Html>;\n}\n`,
        'steps.ts': `${effects}export const steps = ['Create a project', 'Invite the team'];\n`,
      });
      const { result, record, lmx } = await convert(root, 'welcome.tsx');
      expect(result.code, result.stderr).toBe(0);
      expect(lmx).toContain('Open the app');
      // The module does more than declare literals: not read, listed at the import; its loop is listed as before.
      expect(lmx).not.toContain('Create a project');
      const listed = record.remediation.map((item: { line: number; construct: string; done: string }) => `${item.line} ${item.construct}: ${item.done}`);
      expect(listed).toContain('6 the values imported from ./steps: not read: it does more than declare literals when it loads, and convert runs nothing');
      expect(listed).toEqual(expect.arrayContaining([expect.stringMatching(/^9 a loop in JSX \(\.map\)/)]));
      // Convert has ended: had anything run, the file would be there and the server would have been called.
      const report = await run(['migrate', 'report', root, '--json']);
      expect(report.code, report.stderr).toBe(0);
      expect(existsSync(marker)).toBe(false);
      expect(connections).toBe(0);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
