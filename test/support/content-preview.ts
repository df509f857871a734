/**
 * What the tests of `content preview` share (test/e2e/areas/content/preview.test.ts and
 * preview-compare.test.ts draw in a browser, preview-server.test.ts asks its server directly): a
 * content directory, the preview started in-process, an email `content convert` made for
 * `--compare`, and a wait for what a frame shows.
 */
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Page } from './browser.js';
import { contentTree } from './content-tree.js';
import { corpusDirectory } from './convert-corpus.js';
import { type Running, run, startRun, tempDir } from './main.js';

export const WELCOME = 'transactional/welcome--cx1';
export const NEWS = 'campaigns/news--cm1';
export const FOOTER = 'components/footer--cmp1';

/** A content directory of a transactional email, a campaign, a component and a theme. */
export const tree = (): string =>
  contentTree({
    [`${WELCOME}/transactional.json`]: '{"name":"Welcome"}\n',
    [`${WELCOME}/draft.json`]: '{"subject":"Welcome, {data.firstName}","languageCode":"en"}\n',
    [`${WELCOME}/draft.lmx`]: [
      '<Style themeId="th1" />',
      '<H1>Welcome to Acme, {data.firstName}!</H1>',
      '<Paragraph>Your account is ready. Here is what you can do <Strong>right now</Strong>:</Paragraph>',
      '<UnorderedList><ListItem>Invite your team</ListItem><ListItem>Connect your <Link href="https://acme.example/data">data source</Link></ListItem></UnorderedList>',
      '<Button href="https://acme.example/login" align="center">Sign in to Acme</Button>',
      '<Columns widths="50,50"><ColumnItem><H2>Docs</H2><Paragraph>Start with the quickstart.</Paragraph></ColumnItem><ColumnItem><H2>Help</H2><Paragraph>Reply to this email any time.</Paragraph></ColumnItem></Columns>',
      '<Component componentId="cmp1" />',
      '',
    ].join('\n'),
    [`${NEWS}/campaign.json`]: '{"name":"October news"}\n',
    [`${NEWS}/email.lmx`]:
      '<H1>What shipped in October</H1>\n<Paragraph>Hi {contact.firstName}, exports are <Bold>twice</Bold> as fast. More <Link href="https://acme.example/october">here</Link>.</Paragraph>\n',
    [`${FOOTER}/component.json`]: '{"name":"Footer"}\n',
    [`${FOOTER}/component.lmx`]:
      '<Divider />\n<Paragraph align="center" fontSize="13">Acme Inc · 1 Main Street</Paragraph>\n<Icons><Icon name="github" href="https://github.com/acme" /></Icons>\n',
    'themes/ocean--th1/theme.json':
      '{"name":"Ocean","styles":{"backgroundColor":"#e6f2f8","buttonBodyColor":"#0e7490","heading1Color":"#0c2d3f","textLinkColor":"#0e7490"}}\n',
  });

/** The preview of a directory, run in-process until the test stops it; its address is its first line. */
export async function startPreview(root: string, ...options: string[]): Promise<{ running: Running; url: string }> {
  const running = startRun(['content', 'preview', root, '--port', '0', ...options], { env: { LOOPS_API_KEY: undefined } });
  const [, url] = await running.waitFor(/^(http:\/\/127\.0\.0\.1:\d+\/)\n/);
  return { running, url: url! };
}

/** The corpus' Mailgun action email, the original `--compare` is given. */
export const original = (): string => join(corpusDirectory(), 'html-mailgun/action.html');

/** The corpus' Mailgun action email converted by `content convert` into a new content directory. */
export async function converted(): Promise<string> {
  const out = join(tempDir('loopsctl-compare-'), 'loops');
  const result = await run(['content', 'convert', original(), '--out', out]);
  expect(result.code, result.stderr).toBe(0);
  return out;
}

/** Waits until the email shown in a frame of the preview's page holds this text. */
export const frameShows = (page: Page, frame: 'desktop' | 'mobile' | 'original-desktop' | 'original-mobile', text: string) =>
  page.frameLocator(`#${frame}`).getByText(text, { exact: false }).first().waitFor();
