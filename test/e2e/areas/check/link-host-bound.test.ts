/**
 * `check --links` never has more than 2 requests in flight at one host, counted at the host: links
 * and images, a HEAD and the GET after it, every step of a redirect, together, among links that
 * answer 404 and 500, drop the connection, redirect in a loop and past the limit, trickle, never
 * answer, and send a body without end. Each answer is held a moment, so that requests pile up as
 * far as loopsctl lets them; a request counts at the host from its arrival until its answer is
 * sent or its connection closes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  endless,
  image,
  type LinkHost,
  noHead,
  page,
  pngHeader,
  type Route,
  redirect,
  silent,
  spreadOverEmails,
  startLinkHost,
  status,
} from '../../../support/link-hosts.js';
import { sandboxEachTest } from '../../../support/recording.js';

/** An answer given a moment after the request came: the next turns of the timers. */
const held =
  (answer: Route): Route =>
  (req, res) =>
    setTimeout(() => {
      if (!res.destroyed) answer(req, res);
    }, 15);

describe('check --links at one host', () => {
  const openSandbox = sandboxEachTest();
  let host: LinkHost | undefined;
  afterEach(async () => {
    await host?.close();
    host = undefined;
  });

  it('never has more than 2 requests in flight there, whatever its links do', async () => {
    const sandbox = await openSandbox();
    const web = await startLinkHost();
    host = web;
    const huge = endless();
    const paths: string[] = [];
    const route = (path: string, answer: Route) => {
      web.route(path, answer);
      paths.push(path);
    };
    for (let index = 0; index < 12; index += 1) {
      route(`/ok/${index}`, held(page));
      route(`/gone/${index}`, held(status(404)));
      route(`/broken/${index}`, held(status(500)));
      route(`/no-head/${index}`, held(noHead));
      // The connection dropped as the request comes in.
      route(`/drop/${index}`, (req) => req.socket.destroy());
      route(`/loop-a/${index}`, held(redirect(`/loop-b/${index}`)));
      web.route(`/loop-b/${index}`, held(redirect(`/loop-a/${index}`)));
    }
    for (let step = 0; step < 7; step += 1) web.route(`/chain/${step}`, held(redirect(`/chain/${step + 1}`)));
    route('/chain/0', held(redirect('/chain/1')));
    web.route('/chain/7', held(page));
    route('/silent', silent);
    route('/huge', huge.route);
    route('/trickle', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      const timer = setInterval(() => res.write(' '), 100);
      res.once('close', () => clearInterval(timer));
    });
    const links = paths.map((path) => `<Link href="${web.origin}${path}">the page ${path}</Link>`);
    const images: string[] = [];
    for (let index = 0; index < 6; index += 1) {
      web.route(`/img/${index}.png`, held(image('image/png', pngHeader(600))));
      images.push(`<Image src="${web.origin}/img/${index}.png" alt="Picture ${index}" />`);
    }
    spreadOverEmails(sandbox, links, images);

    const result = await sandbox.loopsctl(['check', '--only', 'qa', '--drafts', '--allow-private-links', '--timeout', '1', '--json']);
    // Exit 1: the errors found, said in the report; nothing on stderr.
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toBe('');
    const found = result.json<{ rule: string; link?: string }[]>();
    const rules = new Set(found.map((each) => each.rule));
    for (const rule of ['link-broken', 'link-unreachable', 'link-redirect-loop', 'link-too-many-redirects', 'link-timeout']) expect(rules).toContain(rule);
    // Every address was asked: a HEAD of each link at least, a ranged GET of each image.
    for (const path of paths)
      expect(
        web.requests.some((request) => request.path === path),
        path,
      ).toBe(true);
    expect(web.requests.length).toBeGreaterThan(paths.length + 6);
    expect(web.most).toBeLessThanOrEqual(2);
    // Side by side, up to the bound: not one at a time.
    expect(web.most).toBe(2);
  });
});
