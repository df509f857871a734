/**
 * `--web` and `loopsctl open`: a page of the Loops app, opened in the browser as `gh ... --web`
 * does: with $BROWSER when it is set, else the platform's opener (open, xdg-open, start). Where no
 * browser can be shown (stdout is not a terminal, or no $BROWSER and no display on a Unix desktop)
 * the address is printed instead, so that a script or a session over SSH still gets the link.
 */

import { builtinModule } from '../base/builtin.js';
import { InvalidResponseError } from '../base/errors.js';
import type { Uses } from './capabilities.js';
import type { Runtime } from './runtime.js';

/** Whether a browser window could appear: macOS and Windows always have a desktop; elsewhere X11 or Wayland must be there. */
export function hasDisplay(runtime: Pick<Runtime, 'env' | 'platform'>): boolean {
  if (runtime.platform === 'darwin' || runtime.platform === 'win32') return true;
  return Boolean(runtime.env.DISPLAY || runtime.env.WAYLAND_DISPLAY);
}

/**
 * The program and arguments that open `url`: $BROWSER (words split on spaces; a `%s` is replaced
 * by the address, else it is added at the end), or the platform's opener.
 */
export function browserCommand(url: string, runtime: Pick<Runtime, 'env' | 'platform'>): [string, string[]] {
  const browser = runtime.env.BROWSER?.trim();
  if (browser) {
    const words = browser.split(/\s+/);
    const args = words.slice(1);
    const placed = args.some((arg) => arg.includes('%s'));
    return [words[0]!, placed ? args.map((arg) => arg.replaceAll('%s', url)) : [...args, url]];
  }
  if (runtime.platform === 'darwin') return ['open', [url]];
  // `start` is a command of cmd.exe; its first quoted argument is a window title, hence the "".
  if (runtime.platform === 'win32') return ['cmd', ['/c', 'start', '""', url.replace(/[&^|<>]/g, '^$&')]];
  return ['xdg-open', [url]];
}

/** The only addresses loopsctl opens: pages of the Loops app, never another scheme, host or a string an opener could take for an option. */
export const APP_ORIGIN = 'https://app.loops.so';

/** The address if it is a page of the Loops app, else undefined. */
export function appPage(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.origin !== APP_ORIGIN || parsed.username !== '' || parsed.password !== '' || !url.startsWith(`${APP_ORIGIN}/`)) return undefined;
  return parsed.href;
}

/**
 * Opens a page of the Loops app in the browser, or prints its address where none can be shown:
 * stdout is not a terminal, or there is neither $BROWSER nor a display for the system's opener
 * ($BROWSER may be a browser of the terminal, such as w3m over SSH). The browser's end is waited
 * for, so that one that fails is reported as failing, with the address printed.
 */
export async function openWeb(context: Uses<'out' | 'programs'>, url: unknown, what: string): Promise<void> {
  if (typeof url !== 'string' || url === '') {
    throw new InvalidResponseError(`the API gave no url for ${what}, so there is no page to open`, {
      hint: 'the url field is part of API version 1.22.1; see the record with the same command without --web',
    });
  }
  const page = appPage(url);
  if (page === undefined) {
    throw new InvalidResponseError(
      `the API gave ${JSON.stringify(url.slice(0, 200))} as the page of ${what}, which is not an address of the Loops app (${APP_ORIGIN}/…)`,
      {
        hint: 'loopsctl opens only pages of the Loops app; see the record with the same command without --web',
      },
    );
  }
  return openPage(context, page);
}

/** Opens an address already known to be safe to open: a page of the Loops app, or the page loopsctl serves (content preview). */
export async function openPage(context: Uses<'out' | 'programs'>, page: string): Promise<void> {
  const { runtime, out } = context;
  const ownBrowser = Boolean(runtime.env.BROWSER?.trim());
  if (!runtime.stdout.isTTY || !(ownBrowser || hasDisplay(runtime))) return out.write(`${page}\n`);
  const [program, args] = browserCommand(page, runtime);
  out.note(`Opening ${page} in the browser.`);
  const failure = await runBrowser(program, args, runtime, !hasDisplay(runtime));
  if (failure === undefined) return;
  // The address is still what the person asked for: printed, with why no browser opened.
  out.note(`Could not open the browser (${program}: ${failure}); open this address yourself:`);
  await out.write(`${page}\n`);
}

/**
 * Runs the browser to its end, and says why it failed, or undefined when it did not. Without a
 * display the browser is one of the terminal, which gets the terminal; else it gets nothing of it.
 */
async function runBrowser(
  program: string,
  args: string[],
  runtime: Pick<Runtime, 'env' | 'signal' | 'platform'>,
  onTerminal: boolean,
): Promise<string | undefined> {
  const { spawn } = builtinModule('node:child_process');
  return new Promise<string | undefined>((resolve) => {
    const child = spawn(program, args, {
      stdio: onTerminal ? 'inherit' : 'ignore',
      env: runtime.env as NodeJS.ProcessEnv,
      signal: runtime.signal,
      windowsVerbatimArguments: runtime.platform === 'win32',
    });
    child.once('error', (error) => resolve(error.message));
    child.once('exit', (code, signal) => resolve(code === 0 ? undefined : signal === null ? `it exited with code ${code}` : `it ended by ${signal}`));
  });
}
