/**
 * `check --only qa`: each email's links and images fetched from hosts on loopback, every kind of
 * defect found in a seeded set, nothing in a clean one, nothing sent to a link's host but a plain
 * user agent, and with --snapshot and --notify only the finding that is new since the last run.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LINK_RULES } from '../../../../src/areas/check/links/rules.js';
import { type ApiServer, json, startApiServer } from '../../../support/api-server.js';
import { endless, image, jpegHeader, type LinkHost, noHead, page, pngHeader, redirect, silent, startLinkHost, status } from '../../../support/link-hosts.js';
import { tempDir } from '../../../support/main.js';
import { type RecordingSandbox, sandboxEachTest } from '../../../support/recording.js';
import { hasOpenssl, selfSigned } from '../../../support/tls.js';

interface Found {
  rule: string;
  kind: string;
  name: string;
  message: string;
  link?: string;
}

const MB = 1024 * 1024;

/** Every stored email message's LMX replaced: the receipt's by `receipt`, the others by `others`; each says it is in English. */
function setEmails(sandbox: RecordingSandbox, receipt: string, others: string): void {
  sandbox.server.update((state) => {
    for (const stored of state.emailMessages as { message: { lmx: string; languageCode?: string } }[]) {
      stored.message.lmx = stored.message.lmx.includes('here</Link>') ? receipt : others;
      stored.message.languageCode = 'en';
    }
  });
}

/** An email with nothing wrong: links that answer, an image that is what it says, text enough. */
const clean = (host: LinkHost) => `<H1>What is new in March</H1>
<Paragraph>This month brings faster exports and a new billing page. Read <Link href="${host.origin}/ok">the March release notes</Link> or <Link href="${host.origin}/no-head">the export guide</Link> for the details of each change.</Paragraph>
<Image src="${host.origin}/img/logo.png" alt="Acme" width="100" />
`;

describe('check --only qa: links and images', () => {
  const openSandbox = sandboxEachTest();
  const hosts: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((host) => host.close()));
  });
  const start = async (tls?: { key: string; cert: string }) => {
    const host = await startLinkHost(tls === undefined ? {} : { tls });
    hosts.push(host);
    host.route('/ok', page);
    host.route('/no-head', noHead);
    host.route('/img/logo.png', image('image/png', pngHeader(200)));
    return host;
  };

  it.skipIf(!hasOpenssl)('finds each kind of defect in a seeded email, fetching each address once and sending no key, no cookie', async () => {
    const sandbox = await openSandbox();
    const web = await start();
    const secure = await start(selfSigned());
    const huge = endless();
    web.route('/gone', status(404));
    web.route('/error', status(503));
    web.route('/loop-a', redirect('/loop-b'));
    web.route('/loop-b', redirect('/loop-a'));
    for (let step = 0; step < 7; step += 1) web.route(`/chain/${step}`, redirect(`/chain/${step + 1}`, 301));
    web.route('/chain/7', page);
    web.route('/slow', silent);
    web.route('/to-file', redirect('file:///etc/passwd'));
    web.route('/to-script', redirect('javascript:alert(1)'));
    web.route('/landing', page);
    web.route('/huge', huge.route);
    web.route('/img/missing.png', status(404));
    web.route('/img/page', page);
    web.route('/img/liar.png', image('image/png', jpegHeader(300)));
    web.route('/img/narrow.png', image('image/png', pngHeader(120)));
    for (const name of ['a', 'b', 'c']) web.route(`/img/big-${name}.jpg`, image('image/jpeg', jpegHeader(600), 2 * MB));
    const at = web.origin;
    setEmails(
      sandbox,
      `<H1>Your receipt</H1>
<Paragraph><Link href="${at}/gone">Old pricing</Link> <Link href="${at}/error">Status</Link> <Link href="${at}/loop-a">Loop</Link> <Link href="${at}/chain/0">Long way</Link></Paragraph>
<Paragraph><Link href="${at}/slow">Slow page</Link> <Link href="${secure.origin}/ok">Secure page</Link> <Link href="${at}/to-file">File</Link> <Link href="${at}/to-script">Script</Link></Paragraph>
<Paragraph>Sign in at <Link href="${at}/landing">https://acme.example/account</Link>, get <Link href="${at}/huge">the export</Link>, or <Link href="{data.resetUrl}">reset your password</Link>.</Paragraph>
<Image src="${at}/img/missing.png" alt="Missing" />
<Image src="${at}/img/page" alt="A page" />
<Image src="${at}/img/liar.png" alt="A liar" />
<Image src="${at}/img/narrow.png" alt="Narrow" width="600" />
<Image src="${at}/img/big-a.jpg" alt="Big A" />
<Image src="${at}/img/big-b.jpg" alt="Big B" />
<Image src="${at}/img/big-c.jpg" alt="Big C" />
`,
      clean(web),
    );
    const result = await sandbox.loopsctl(['check', '--only', 'qa', '--allow-private-links', '--timeout', '1', '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    const network = result.json<Found[]>().filter((found) => Object.hasOwn(LINK_RULES, found.rule));
    const byRule = (rule: string) => network.filter((found) => found.rule === rule).map((found) => found.link?.replace(at, '').replace(secure.origin, 'https'));
    expect(network.every((found) => found.name === 'Order receipt')).toBe(true);
    expect(byRule('link-broken')).toEqual(['/gone', '/error']);
    expect(byRule('link-redirect-loop')).toEqual(['/loop-a']);
    expect(byRule('link-too-many-redirects')).toEqual(['/chain/0']);
    expect(byRule('link-timeout')).toEqual(['/slow']);
    expect(byRule('link-tls')).toEqual(['https/ok']);
    expect(byRule('link-unsafe-redirect')).toEqual(['/to-file', '/to-script']);
    expect(byRule('link-host-mismatch')).toEqual(['/landing']);
    expect(byRule('image-broken')).toEqual(['/img/missing.png']);
    expect(byRule('image-not-image')).toEqual(['/img/page', '/img/liar.png']);
    expect(byRule('image-width')).toEqual(['/img/narrow.png']);
    expect(byRule('image-too-large')).toEqual(['/img/big-a.jpg', '/img/big-b.jpg', '/img/big-c.jpg']);
    expect(network.filter((found) => found.rule === 'email-images-too-large')).toHaveLength(1);
    expect(network.find((found) => found.rule === 'links-skipped')!.message).toContain('1 link or image address built from variables');
    expect(network.find((found) => found.rule === 'link-host-mismatch')!.message).toContain('the text shows acme.example');
    expect(network.find((found) => found.rule === 'image-not-image' && found.link!.endsWith('liar.png'))!.message).toContain(
      'says image/png and its bytes are image/jpeg',
    );
    // The 10 GB answer: its connection ended after the first kilobyte was read.
    await huge.ended;
    expect(huge.sent()).toBeLessThan(64 * MB);
    // Ten other emails link to /ok: it was asked once.
    expect(web.requests.filter((request) => request.path === '/ok')).toHaveLength(1);
    for (const request of [...web.requests, ...secure.requests]) {
      expect(Object.keys(request.headers).sort()).toEqual(expect.arrayContaining(['host', 'user-agent']));
      expect(Object.keys(request.headers).filter((name) => !['host', 'user-agent', 'range', 'connection'].includes(name))).toEqual([]);
      expect(request.headers['user-agent']).toMatch(/^loopsctl\/\S+$/);
      expect(JSON.stringify(request.headers)).not.toContain('sandbox-key');
    }
  });

  it('finds nothing at all in a clean set', async () => {
    const sandbox = await openSandbox();
    const web = await start();
    setEmails(sandbox, clean(web), clean(web));
    const result = await sandbox.loopsctl(['check', '--only', 'qa', '--allow-private-links', '--json']);
    expect([result.code, result.stderr, result.json()]).toEqual([0, '', []]);
    expect(web.requests.map((request) => `${request.method} ${request.path}`).sort()).toEqual([
      'GET /img/logo.png',
      'GET /no-head',
      'HEAD /no-head',
      'HEAD /ok',
    ]);
  });

  it('reports links to loopback without fetching them, unless --allow-private-links; --links alone is what fetches', async () => {
    const sandbox = await openSandbox();
    const web = await start();
    setEmails(sandbox, clean(web), clean(web));
    const result = await sandbox.loopsctl(['check', '--only', 'qa', '--json']);
    expect(result.code).toBe(0);
    const found = result.json<Found[]>();
    expect(new Set(found.map((each) => each.rule))).toEqual(new Set(['link-private']));
    expect(found[0]!.message).toContain('is a loopback address (127.0.0.0/8), which recipients cannot reach; not fetched');
    const offline = await sandbox.loopsctl(['check', '--only', 'qa,rendered', '--json']);
    expect(offline.json<Found[]>().some((each) => each.rule === 'link-private')).toBe(true);
    const withoutLinks = await sandbox.loopsctl(['check', '--json']);
    expect(withoutLinks.json<Found[]>().some((each) => Object.hasOwn(LINK_RULES, each.rule))).toBe(false);
    expect(web.requests).toEqual([]);
  });

  describe('nightly, with --snapshot and --notify', () => {
    let webhook: ApiServer | undefined;
    afterEach(async () => {
      await webhook?.close();
      webhook = undefined;
    });

    it('posts a link that started failing, and not the one that failed last night too', async () => {
      const sandbox = await openSandbox();
      const web = await start();
      web.route('/gone', status(404));
      web.route('/pricing', page);
      setEmails(
        sandbox,
        `${clean(web)}<Paragraph>See <Link href="${web.origin}/gone">the old plans</Link> and <Link href="${web.origin}/pricing">the pricing page</Link>.</Paragraph>\n`,
        clean(web),
      );
      webhook = await startApiServer();
      webhook.route('POST /services/T1/B1/token', (_req, res) => json(res, 200, 'ok'));
      const url = `${webhook.url}/services/T1/B1/token`;
      const snapshot = join(tempDir(), 'loops-check.json');
      const nightly = ['check', '--links', '--allow-private-links', '--snapshot', snapshot, '--notify', url];
      const first = await sandbox.loopsctl(nightly);
      expect([first.code, first.stderr]).toEqual([1, '']);
      expect(webhook.requests).toHaveLength(1);
      expect(webhook.requests[0]!.body).toContain('/gone answers HTTP 404');

      const second = await sandbox.loopsctl(nightly);
      expect([second.code, second.stderr]).toEqual([1, '']);
      expect(webhook.requests).toHaveLength(1);

      web.route('/pricing', status(500));
      const third = await sandbox.loopsctl(nightly);
      expect([third.code, third.stderr]).toEqual([1, '']);
      expect(webhook.requests).toHaveLength(2);
      const posted = webhook.requests[1]!.body;
      expect(JSON.parse(posted).blocks[0].text.text).toBe('loopsctl check: 1 new problem, 0 resolved');
      expect(posted).toContain('/pricing answers HTTP 500');
      expect(posted).not.toContain('/gone');
    });
  });
});
