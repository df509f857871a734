/**
 * The images loopsctl fetches for a page (src/api/outside-images.ts), against a host on loopback:
 * each address asked once while its answer is kept, and a server that runs for days (the preview,
 * the inbox) keeping no more than its bound of bytes: the oldest are forgotten, and asked again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { OutsideImages } from '../../../src/api/outside-images.js';
import { image, type LinkHost, startLinkHost } from '../../support/link-hosts.js';

describe('the images fetched for a page', () => {
  const closing: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const each of closing.splice(0).reverse()) await each.close();
  });

  const images = (keptBytes?: number) => {
    const made = new OutsideImages({ userAgent: 'loopsctl/test', timeoutMs: 5_000, allowPrivate: true }, () => undefined, keptBytes);
    closing.push(made);
    return made;
  };
  const host = async (): Promise<LinkHost> => {
    const started = await startLinkHost();
    closing.push(started);
    for (const name of ['a', 'b', 'c']) started.route(`/${name}.png`, image('image/png', Buffer.from('png'), 100));
    return started;
  };
  const asked = (linkHost: LinkHost) => linkHost.requests.map((request) => request.path);

  it('asks a host once for an address, however often a page asks for it', async () => {
    const linkHost = await host();
    const pageImages = images();
    const answers = await Promise.all([1, 2, 3].map(() => pageImages.load(`${linkHost.origin}/a.png`)));
    expect(answers.map((answer) => ('body' in answer ? answer.body.length : answer))).toEqual([100, 100, 100]);
    expect(asked(linkHost)).toEqual(['/a.png']);
  });

  it('keeps no more bytes than its bound: the oldest image is forgotten, and asked again', async () => {
    const linkHost = await host();
    const pageImages = images(250);
    for (const name of ['a', 'b', 'a', 'c', 'b', 'a']) await pageImages.load(`${linkHost.origin}/${name}.png`);
    // a and b fit (200 bytes); c pushes a out, a pushes b out.
    expect(asked(linkHost)).toEqual(['/a.png', '/b.png', '/c.png', '/a.png']);
  });
});
