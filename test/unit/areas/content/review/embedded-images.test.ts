/**
 * The images `content review --out --allow-network` puts inside its page: as loopsctl fetched them,
 * `data:` images of an image's type only, within the page's bounds (its count of images, the size
 * of one, the size of all, every frame's copy counted); any other a placeholder of its size, listed
 * with why.
 */
import { describe, expect, it } from 'vitest';
import {
  EmbeddedImages,
  fetchPageImages,
  MAX_EMBEDDED_IMAGE_BYTES,
  MAX_PAGE_IMAGE_DATA,
  MAX_PAGE_IMAGES,
} from '../../../../../src/areas/content/review/embedded-images.js';
import type { PageImage } from '../../../../../src/base/page-images.js';

const png = (bytes: number): PageImage => ({ status: 200, contentType: 'image/png', body: Buffer.alloc(bytes, 1) });
const img = (address: string) => `<img src="${address.replaceAll('&', '&amp;')}" alt="" width="120" height="60">`;
const srcOf = (html: string) => /src="([^"]*)"/.exec(html)![1]!;

describe('the images inside a review page', () => {
  it('holds an image as fetched, under its type alone, its address kept', () => {
    const images = new EmbeddedImages(
      new Map([['https://cdn.example/a.png?x=1&y=2', { status: 200, contentType: 'image/PNG; charset=binary', body: Buffer.from('png') }]]),
    );
    const html = images.draw(img('https://cdn.example/a.png?x=1&y=2'));
    expect(srcOf(html)).toBe(`data:image/png;base64,${Buffer.from('png').toString('base64')}`);
    expect(html).toContain('data-embedded-image="https://cdn.example/a.png?x=1&amp;y=2"');
    expect(images.listed()).toBe('');
  });

  it('draws a placeholder for each image it does not hold, and lists it with why', () => {
    const images = new EmbeddedImages(
      new Map<string, PageImage>([
        ['http://127.0.0.1/a.png', { refused: 'a loopback address (127.0.0.0/8)' }],
        ['https://cdn.example/gone.png', { failed: 'HTTP 404' }],
        ['https://cdn.example/huge.png', png(MAX_EMBEDDED_IMAGE_BYTES + 1)],
        ['https://cdn.example/page.png', { status: 200, contentType: 'text/html', body: Buffer.from('<script>') }],
      ]),
    );
    for (const address of [
      'http://127.0.0.1/a.png',
      'https://cdn.example/gone.png',
      'https://cdn.example/huge.png',
      'https://cdn.example/page.png',
      'https://cdn.example/never.png',
    ]) {
      const html = images.draw(img(address));
      expect(srcOf(html)).toMatch(/^data:image\/svg\+xml;charset=utf-8,/);
      expect(decodeURIComponent(srcOf(html))).toContain('width="120" height="60"');
      expect(html).toContain(`data-offline-image="${address}"`);
    }
    expect([...images.notShown]).toEqual([
      ['http://127.0.0.1/a.png', 'refused: a loopback address (127.0.0.0/8) (--allow-private-links loads it)'],
      ['https://cdn.example/gone.png', 'HTTP 404'],
      ['https://cdn.example/huge.png', `${MAX_EMBEDDED_IMAGE_BYTES + 1} bytes, over the ${MAX_EMBEDDED_IMAGE_BYTES} a page holds of one image`],
      ['https://cdn.example/page.png', 'text/html, not a type of image'],
      ['https://cdn.example/never.png', `not fetched: a page holds at most ${MAX_PAGE_IMAGES} images`],
    ]);
    expect(images.listed()).toContain('<summary>5 images not shown</summary>');
    expect(images.listed()).toContain('<li><code>https://cdn.example/gone.png</code>: HTTP 404</li>');
  });

  it('holds no more image data than its bound, every frame’s copy counted', () => {
    const bytes = 900_000;
    const images = new EmbeddedImages(new Map([['https://cdn.example/a.png', png(bytes)]]));
    const copy = Math.ceil(bytes / 3) * 4 + 'data:image/png;base64,'.length;
    const fits = Math.floor(MAX_PAGE_IMAGE_DATA / copy);
    const drawn = Array.from({ length: fits + 2 }, () => images.draw(img('https://cdn.example/a.png')));
    expect(drawn.filter((html) => html.includes('data-embedded-image'))).toHaveLength(fits);
    expect(drawn.slice(fits).every((html) => html.includes('data-offline-image'))).toBe(true);
    expect(images.notShown.get('https://cdn.example/a.png')).toBe(`past the ${MAX_PAGE_IMAGE_DATA / 1024 / 1024} MB of images a page holds`);
  });

  it('fetches no more than a page holds, each address once, and only addresses of the web', async () => {
    const asked: string[] = [];
    const htmls = Array.from({ length: MAX_PAGE_IMAGES + 20 }, (_, index) => `${img(`https://cdn.example/${index}.png`)}${img('https://cdn.example/0.png')}`);
    htmls.push(img('data:image/png;base64,AAAA'), img('file:///etc/passwd'));
    const fetched = await fetchPageImages(htmls, async (address) => {
      asked.push(address);
      return png(10);
    });
    expect(asked).toHaveLength(MAX_PAGE_IMAGES);
    expect(new Set(asked).size).toBe(MAX_PAGE_IMAGES);
    expect(asked.every((address) => address.startsWith('https://cdn.example/'))).toBe(true);
    expect([...fetched.keys()]).toEqual(asked);
  });
});
