/**
 * The verdicts of `check --links` at their edges, each named for the bug it would let through:
 * a name that resolves to a private address (fetched, or followed as a redirect's target), the
 * sixth redirect, a 400, and a domain that merely ends like the one the text shows. The links
 * point at public names that a resolver of the test's own sends to hosts on loopback.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RenderedEmail } from '../../../../src/areas/check/emails.js';
import type { CheckedMessage } from '../../../../src/areas/check/gather.js';
import { checkLinks } from '../../../../src/areas/check/links/check.js';
import { parseLmx } from '../../../../src/lmx/index.js';
import type { EmailMessage } from '../../../../src/platform/email-messages/schemas.js';
import { type LinkHost, page, publicNetwork, redirect, startLinkHost, status, testResolver } from '../../../support/link-hosts.js';

const PUBLIC = '93.184.216.34';
const EVIL = '198.199.64.10';

/** A campaign's email made of the LMX given, as `check` reads one. */
function email(lmx: string): RenderedEmail {
  const checked = {
    record: { kind: 'campaign', name: 'November newsletter', id: 'cmp_1' },
    role: 'campaign',
    lmxKind: 'campaign',
    message: { id: 'msg_1', lmx } as unknown as EmailMessage,
    draft: false,
  } as CheckedMessage;
  return { checked, document: parseLmx(lmx).document, html: '', components: new Map() };
}

describe('check --links, at the edges of its verdicts', () => {
  const hosts: LinkHost[] = [];
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((host) => host.close()));
  });
  const start = async () => {
    const host = await startLinkHost();
    hosts.push(host);
    return host;
  };
  /** The findings for one email, its names resolved by the test: `acme.example` and its subdomains are public and reach `site`, `evilacme.example` reaches `evil`. */
  const findings = async (lmx: string, site: LinkHost, extra: Record<string, readonly string[]> = {}, evil?: LinkHost) => {
    const dns = testResolver({
      'acme.example': [[PUBLIC]],
      'www.acme.example': [[PUBLIC]],
      'evilacme.example': [[EVIL]],
      ...Object.fromEntries(Object.entries(extra).map(([name, answer]) => [name, [answer]])),
    });
    const network = publicNetwork({ [PUBLIC]: site, ...(evil === undefined ? {} : { [EVIL]: evil }) });
    const problems = await checkLinks([email(lmx)], {
      userAgent: 'loopsctl/test',
      timeoutMs: 5_000,
      allowPrivate: false,
      resolve: dns.resolve,
      pool: network.pool,
    });
    return problems.map(({ rule, message }) => ({ rule, message }));
  };

  it('does not fetch a link, nor follow a redirect, to a name that resolves to a private address', async () => {
    const site = await start();
    const inside = await start();
    inside.route('/admin', page);
    site.route('/moved', redirect('http://intranet.acme.example/admin'));
    const found = await findings(
      `<Paragraph>See <Link href="http://intranet.acme.example/admin">the admin page</Link> and <Link href="http://acme.example/moved">the moved page</Link>.</Paragraph>`,
      site,
      { 'intranet.acme.example': ['10.20.0.8'] },
    );
    expect(found).toEqual([
      {
        rule: 'link-private',
        message: expect.stringContaining(
          'http://intranet.acme.example/admin is a private address (10.0.0.0/8), which intranet.acme.example resolves to, which recipients cannot reach; not fetched',
        ),
      },
      {
        rule: 'link-unsafe-redirect',
        message: expect.stringContaining('http://acme.example/moved redirects to http://intranet.acme.example: a private address (10.0.0.0/8)'),
      },
    ]);
    expect(site.requests.map((request) => request.path)).toEqual(['/moved']);
    expect(inside.requests).toEqual([]);
  });

  it('follows 5 redirects and reports the 6th', async () => {
    const site = await start();
    for (let step = 0; step < 6; step += 1) site.route(`/five/${step}`, redirect(step === 5 ? '/landed' : `/five/${step + 1}`));
    for (let step = 0; step < 7; step += 1) site.route(`/six/${step}`, redirect(step === 6 ? '/landed' : `/six/${step + 1}`));
    site.route('/landed', page);
    const found = await findings(
      `<Paragraph><Link href="http://acme.example/five/1">Five redirects away</Link> and <Link href="http://acme.example/six/1">six</Link>.</Paragraph>`,
      site,
    );
    expect(found).toEqual([{ rule: 'link-too-many-redirects', message: expect.stringContaining('http://acme.example/six/1 is redirected more than 5 times') }]);
    // The sixth redirect's target was never asked.
    expect(site.requests.filter((request) => request.path === '/landed')).toHaveLength(1);
  });

  it('reports a link that answers 400 as broken, and one that answers 399 as not', async () => {
    const site = await start();
    site.route('/bad-request', status(400));
    site.route('/odd', status(399));
    const found = await findings(
      `<Paragraph><Link href="http://acme.example/bad-request">Sign up</Link>, <Link href="http://acme.example/odd">odd</Link>.</Paragraph>`,
      site,
    );
    expect(found).toEqual([{ rule: 'link-broken', message: expect.stringContaining('http://acme.example/bad-request answers HTTP 400') }]);
  });

  it('tells evilacme.example from acme.example, and takes www.acme.example for it', async () => {
    const site = await start();
    const evil = await start();
    site.route('/account', page);
    evil.route('/account', page);
    const found = await findings(
      `<Paragraph>Sign in at <Link href="http://evilacme.example/account">https://acme.example/account</Link>, or at <Link href="http://www.acme.example/account">acme.example</Link>.</Paragraph>`,
      site,
      {},
      evil,
    );
    expect(found).toEqual([
      {
        rule: 'link-host-mismatch',
        message: expect.stringContaining('the text shows acme.example and http://evilacme.example/account lands on evilacme.example'),
      },
    ]);
  });

  it('tells acme.example from the evilacme.example a text shows, and takes shop.acme.example for it', async () => {
    const site = await start();
    site.route('/account', page);
    const found = await findings(
      `<Paragraph>Sign in at <Link href="http://acme.example/account">evilacme.example</Link>, or at <Link href="http://acme.example/account?shop">shop.acme.example</Link>.</Paragraph>`,
      site,
    );
    expect(found).toEqual([
      {
        rule: 'link-host-mismatch',
        message: expect.stringContaining('the text shows evilacme.example and http://acme.example/account lands on acme.example'),
      },
    ]);
  });
});
