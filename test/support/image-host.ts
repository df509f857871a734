/**
 * What the browser tests of loopsctl's pages (`content preview`, `content review`, the sandbox's
 * inbox) need to tell who fetched an email's image: a host on loopback that answers every path
 * with a PNG of one pixel and records who asked (the path and the user agent: loopsctl's, or a
 * browser's), and the images of a page as the browser drew them.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Locator } from 'playwright-core';

/** A PNG of one pixel. */
export const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

export interface ImageHost {
  port: number;
  /** Every request, in order. */
  asked: { path: string; agent: string }[];
  close(): Promise<void>;
}

/** A host on 127.0.0.1 answering every path with PIXEL. */
export async function startImageHost(): Promise<ImageHost> {
  const asked: ImageHost['asked'] = [];
  const server: Server = createServer((req, res) => {
    asked.push({ path: req.url ?? '', agent: req.headers['user-agent'] ?? '' });
    res.writeHead(200, { 'content-type': 'image/png' }).end(PIXEL);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    asked,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** An image as the browser drew it: its address up to the first comma (a `data:` image's type), the address kept by a placeholder or an image put in a page, and its width as decoded (0: it did not load). */
export interface DrawnImage {
  src: string;
  offline: string | null;
  embedded: string | null;
  naturalWidth: number;
}

/** The images a locator finds, each once it has loaded or failed. */
export function drawnImages(images: Locator): Promise<DrawnImage[]> {
  return images.evaluateAll((elements) =>
    Promise.all(
      elements.map(
        (element) =>
          new Promise<DrawnImage>((resolve) => {
            // The DOM's types are the page's, not this file's: the element as far as this reads it.
            type Image = { src: string; complete: boolean; naturalWidth: number; onload: unknown; onerror: unknown; getAttribute(name: string): string | null };
            const image = element as unknown as Image;
            const drawn = () =>
              resolve({
                src: image.src.split(',')[0]!,
                offline: image.getAttribute('data-offline-image'),
                embedded: image.getAttribute('data-embedded-image'),
                naturalWidth: image.naturalWidth,
              });
            if (image.complete) drawn();
            else image.onload = image.onerror = drawn;
          }),
      ),
    ),
  );
}
