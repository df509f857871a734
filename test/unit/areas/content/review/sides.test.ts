/**
 * What a review reads of each side and what it takes as a change, each test named for the bug it
 * catches: two trees read by the one reader (readSide) and compared (compareSides), in memory of
 * this process, no git and no account.
 */
import { describe, expect, it } from 'vitest';
import { compareSides, emailDigest } from '../../../../../src/areas/content/review/compare.js';
import { readSide, unusedChangedComponents } from '../../../../../src/areas/content/review/sides.js';
import { contentTree } from '../../../../support/content-tree.js';

const STATE = '{"format":1,"kinds":["transactional","campaigns","components","themes","workflows"],"accounts":{}}\n';
const WELCOME = 'transactional/welcome--cx1';

/** A tree of one transactional email embedding the footer component, with these files put over it. */
function tree(overrides: Record<string, string | undefined> = {}): string {
  const files: Record<string, string | undefined> = {
    'loopsctl-state.json': STATE,
    'themes/ocean--th1/theme.json': '{"name":"Ocean","styles":{"backgroundColor":"#e6f2f8","buttonBodyColor":"#0e7490"}}\n',
    'components/footer--cmp2/component.json': '{"name":"Footer"}\n',
    'components/footer--cmp2/component.lmx': '<Paragraph align="center">Acme Inc · 1 Main Street</Paragraph>\n',
    [`${WELCOME}/transactional.json`]: '{"name":"Welcome"}\n',
    [`${WELCOME}/draft.json`]: '{"subject":"Welcome","fromName":"Acme","fromEmail":"hello@acme.example"}\n',
    [`${WELCOME}/draft.lmx`]:
      '<Style themeId="th1" />\n<H1>Welcome</H1>\n<Paragraph>Thanks for joining Acme. Your workspace is ready.</Paragraph>\n<Button href="https://acme.example/start">Start</Button>\n<Component componentId="cmp2" />\n',
    ...overrides,
  };
  return contentTree(Object.fromEntries(Object.entries(files).filter((entry): entry is [string, string] => entry[1] !== undefined)));
}

async function reviewed(base: string, head: string) {
  const [before, after] = await Promise.all([readSide(base), readSide(head)]);
  return { ...compareSides(before, after), before, after };
}

/** A workflow whose two send-email nodes send the same email, in the order given in its file. */
function workflow(order: ['send-a', 'send-b'] | ['send-b', 'send-a']): Record<string, string> {
  const node = (key: string) => [`  ${key}:`, '    type: SendEmailAction', '    next: [done]', '    email: emails/hello/email.json'];
  const yaml = [
    'name: Onboarding',
    'mailingList: null',
    'root: trigger',
    'nodes:',
    '  trigger:',
    '    type: SignupTrigger',
    '    next: [send-a, send-b]',
    '    reEligible: false',
    ...order.flatMap(node),
    '  done:',
    '    type: ExitAction',
    '    next: []',
    '',
  ].join('\n');
  return {
    'workflows/onboarding--wf1/workflow.yaml': yaml,
    'workflows/onboarding--wf1/emails/hello/email.json': '{"subject":"Hello","fromName":"Acme","fromEmail":"hello@acme.example"}\n',
    'workflows/onboarding--wf1/emails/hello/email.lmx': '<Paragraph>Hello there.</Paragraph>\n',
  };
}

describe('what a review reads of each side', () => {
  it("a component's new data variable is a variable of every email that embeds it", async () => {
    const { emails } = await reviewed(
      tree(),
      tree({ 'components/footer--cmp2/component.lmx': '<Paragraph align="center">Acme Inc · 1 Main Street · {data.plan} plan</Paragraph>\n' }),
    );
    expect(emails.map(({ path, changed, variables }) => ({ path, changed, variables }))).toEqual([
      { path: WELCOME, changed: ['body', 'plainText', 'dataVariables'], variables: { added: ['data.plan'], removed: [] } },
    ]);
  });

  it('a reply-to address changed alone is a change of the sender', async () => {
    const { emails } = await reviewed(
      tree(),
      tree({ [`${WELCOME}/draft.json`]: '{"subject":"Welcome","fromName":"Acme","fromEmail":"hello@acme.example","replyToEmail":"help@acme.example"}\n' }),
    );
    expect(emails.map(({ path, changed }) => ({ path, changed }))).toEqual([{ path: WELCOME, changed: ['from'] }]);
    expect(emails[0]!.after!.from).toBe('Acme <hello@acme.example> (reply to help@acme.example)');
  });

  it('two send-email nodes of one email written in the other order: no change', async () => {
    const { emails, before } = await reviewed(tree(workflow(['send-a', 'send-b'])), tree(workflow(['send-b', 'send-a'])));
    expect(before.get('workflows/onboarding--wf1/emails/hello')?.nodes).toEqual(['send-a', 'send-b']);
    expect(emails).toEqual([]);
  });

  it('a component an email embeds, by any name it may know it by or on either side, is never said to reach no one', async () => {
    const footer = { 'components/footer--cmp2/component.lmx': '<Paragraph>Acme Inc · 2 Market Square</Paragraph>\n' };
    const unused = async (base: string, head: string) => {
      const { before, after } = await reviewed(base, head);
      return unusedChangedComponents(base, head, [...before.values(), ...after.values()]);
    };
    // By its id, as pulled.
    expect(await unused(tree(), tree(footer))).toEqual([]);
    // By its directory's name.
    const byDirectory = { [`${WELCOME}/draft.lmx`]: '<Component componentId="footer--cmp2" />\n' };
    expect(await unused(tree(byDirectory), tree({ ...byDirectory, ...footer }))).toEqual([]);
    // By the id the state file records for it in an account.
    const state = {
      'loopsctl-state.json': STATE.replace('"accounts":{}', '"accounts":{"Acme":{"components/footer--cmp2":{"id":"cmp_account_2","digest":"x"}}}'),
      [`${WELCOME}/draft.lmx`]: '<Component componentId="cmp_account_2" />\n',
    };
    expect(await unused(tree(state), tree({ ...state, ...footer }))).toEqual([]);
    // By an email of the base side only: the change stops it embedding the component, which is then removed.
    const without = {
      [`${WELCOME}/draft.lmx`]: '<Paragraph>No footer.</Paragraph>\n',
      'components/footer--cmp2/component.json': undefined,
      'components/footer--cmp2/component.lmx': undefined,
    };
    expect(await unused(tree(), tree(without))).toEqual([]);
    // A component new on the head side, which an email there embeds.
    const added = {
      'components/banner--cmp5/component.json': '{"name":"Banner"}\n',
      'components/banner--cmp5/component.lmx': '<Paragraph>Spring sale.</Paragraph>\n',
      [`${WELCOME}/draft.lmx`]: '<Component componentId="cmp5" />\n<Component componentId="cmp2" />\n',
    };
    expect(await unused(tree(), tree(added))).toEqual([]);
    // One no email of either side embeds is said so.
    const unembedded = { [`${WELCOME}/draft.lmx`]: '<Paragraph>No footer.</Paragraph>\n' };
    expect(await unused(tree(unembedded), tree({ ...unembedded, ...footer }))).toEqual(['components/footer--cmp2']);
  });
});

describe('what a review takes as a change', () => {
  it('a paragraph re-wrapped over two lines of LMX draws the same: no change, its plain text neither', async () => {
    const { emails, unchanged } = await reviewed(
      tree(),
      tree({
        [`${WELCOME}/draft.lmx`]:
          '<Style themeId="th1" />\n<H1>Welcome</H1>\n<Paragraph>Thanks for joining Acme.\n  Your workspace is ready.</Paragraph>\n<Button href="https://acme.example/start">Start</Button>\n<Component componentId="cmp2" />\n',
      }),
    );
    expect(emails).toEqual([]);
    expect(unchanged).toBe(1);
  });

  it('a code block whose lines are joined draws and reads otherwise: its block and the plain text changed, though a paragraph re-wrapped is not', async () => {
    const code = (text: string) => tree({ [`${WELCOME}/draft.lmx`]: `<Paragraph>Run:</Paragraph>\n<CodeBlock>${text}</CodeBlock>\n` });
    const { emails } = await reviewed(code('npm install\nnpm start'), code('npm install npm start'));
    expect(emails.map(({ changed, blocks }) => ({ changed, blocks: blocks.map(({ change, tag }) => `${change} ${tag}`) }))).toEqual([
      { changed: ['body', 'plainText'], blocks: ['changed CodeBlock'] },
    ]);
    expect((await reviewed(code('npm install\nnpm start'), code('npm install\nnpm start'))).emails).toEqual([]);
  });

  it('the review digest covers the email as drawn: two colours of the same change, two digests; the same colour, one', async () => {
    const colour = (hex: string) =>
      tree({ 'themes/ocean--th1/theme.json': `{"name":"Ocean","styles":{"backgroundColor":"#e6f2f8","buttonBodyColor":"${hex}"}}\n` });
    const base = tree();
    const first = await reviewed(base, colour('#155e75'));
    const second = await reviewed(base, colour('#7c2d12'));
    // Each lists the same email, the same fields, the same texts: only the drawing tells them apart.
    expect(first.emails.map(({ path, changed }) => ({ path, changed }))).toEqual([{ path: WELCOME, changed: ['body'] }]);
    expect(second.emails.map(({ path, changed }) => ({ path, changed }))).toEqual([{ path: WELCOME, changed: ['body'] }]);
    expect(first.digest).not.toBe(second.digest);
    expect((await reviewed(base, colour('#155e75'))).digest).toBe(first.digest);
    expect(emailDigest(first.emails[0]!.after!)).not.toBe(emailDigest(second.emails[0]!.after!));
  });

  it("the review digest covers an image's address, which no text of the email shows", async () => {
    const image = (src: string) =>
      tree({
        [`${WELCOME}/draft.lmx`]: `<H1>Welcome</H1>\n<Image src="${src}" width="560" height="200" alt="Our dashboard" />\n`,
      });
    const base = image('https://cdn.acme.example/a.png');
    const first = await reviewed(base, image('https://cdn.acme.example/b.png'));
    const second = await reviewed(base, image('https://tracker.example/b.png'));
    expect(first.emails.map(({ changed }) => changed)).toEqual([['body']]);
    expect(first.digest).not.toBe(second.digest);
  });
});
