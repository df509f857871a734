/**
 * The images of a page loopsctl serves to the person's browser (`content preview`, the sandbox's
 * inbox), fetched by loopsctl through the fetcher for outside addresses with the run's time limit,
 * proxy and signal: an address it refuses is said on stderr, once, with the flag that loads it.
 */
import { OutsideImages } from '../api/outside-images.js';
import { sanitize } from '../base/sanitize.js';
import { VERSION } from '../base/version.js';
import type { Uses } from './capabilities.js';

/** The fetcher of a page's images; `where` names the page in what is said (`the preview`, `the inbox`). Its owner closes it. */
export function servedPageImages(context: Uses<'out' | 'globals'> & Pick<Uses<'env'>, 'env'>, allowPrivate: boolean, where: string): OutsideImages {
  const { out, globals, runtime } = context;
  return new OutsideImages(
    {
      userAgent: `loopsctl/${VERSION}`,
      timeoutMs: globals.timeout * 1000,
      proxy: { flag: globals.proxy, env: context.env },
      signal: runtime.signal,
      allowPrivate,
      ...(globals.debug ? { debug: (line: string) => runtime.stderr.write(`${line}\n`) } : {}),
    },
    (address, why) => out.note(`Not loaded in ${where}: ${sanitize(address)}: ${why} (--allow-private-links loads it).`),
  );
}
