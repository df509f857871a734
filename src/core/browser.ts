/**
 * `--web`: a record's page in the Loops app, opened in the browser as `gh ... --web` does: with
 * $BROWSER when it is set, else the platform's opener (open, xdg-open, start). Where no browser
 * can be shown (stdout is not a terminal, or no display on a Unix desktop) the address is printed
 * instead, so `--web` in a script or over SSH still gives the link.
 */
import { InvalidResponseError } from '../api/errors.js';
import { builtinModule } from './builtin.js';
import type { CommandContext } from './context.js';
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

/**
 * Opens the record's page, or prints its address when no browser can be shown. The browser is
 * started on its own (detached), so loopsctl exits at once whatever the browser does.
 */
export async function openWeb(context: CommandContext, url: unknown, what: string): Promise<void> {
  if (typeof url !== 'string' || url === '') {
    throw new InvalidResponseError(`the API gave no url for ${what}, so there is no page to open`, { hint: 'the url field is part of API version 1.22.1; see the record with the same command without --web' });
  }
  const { runtime, out } = context;
  if (!runtime.stdout.isTTY || !hasDisplay(runtime)) return out.write(`${url}\n`);
  const [program, args] = browserCommand(url, runtime);
  const { spawn } = builtinModule('node:child_process');
  const started = await new Promise<Error | undefined>((resolve) => {
    const child = spawn(program, args, { detached: true, stdio: 'ignore', env: runtime.env as NodeJS.ProcessEnv, windowsVerbatimArguments: runtime.platform === 'win32' });
    child.once('error', resolve);
    child.once('spawn', () => {
      child.unref();
      resolve(undefined);
    });
  });
  if (started !== undefined) {
    // The address is still what the person asked for: printed, with why no browser opened.
    out.note(`Could not start the browser (${program}: ${started.message}); open this address yourself:`);
    return out.write(`${url}\n`);
  }
  out.note(`Opening ${url} in the browser.`);
}
