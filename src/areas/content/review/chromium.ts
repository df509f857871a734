/**
 * Chromium, driven through its DevTools protocol over a pipe (`--remote-debugging-pipe`: the
 * protocol's JSON messages on descriptors 3 and 4, each ended by a NUL), for the screenshots of
 * `content review --screenshots`. Nothing listens on a port. It starts headless with a new empty
 * profile in a temporary directory (removed when it closes; in /tmp when TMPDIR is too deep for
 * the socket Chromium makes in it) and the flags that keep it from
 * reaching the network by itself. Every request a page makes is held (the protocol's Fetch domain):
 * it fails, unless the tab was given a loader (--allow-network), which fetches an http(s) image
 * through loopsctl's fetcher for outside addresses and hands the browser its bytes, so that the
 * page reaches no address the fetcher refuses. The browser is found as LOOPSCTL_CHROMIUM names it, else on
 * PATH (chromium, chromium-browser, google-chrome, chromium-headless-shell), else where macOS
 * installs it.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, rmSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { UsageError } from '../../../base/errors.js';
import type { ImageLoader } from '../../../base/page-images.js';
import { socketTempDir } from '../../../base/socket-dir.js';

/**
 * The whole browser under its usual names, then the build of Chromium made to run headless alone
 * (Debian's chromium-headless-shell), which a CI machine may install without the whole browser and
 * which draws the same pictures.
 */
const NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chromium-headless-shell'];
const MACOS = ['/Applications/Chromium.app/Contents/MacOS/Chromium', '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'];

/** What to install when no browser is found: said by the refusal and the docs. */
export const INSTALL_HINT =
  'install Chromium (Debian and Ubuntu: `apt-get install chromium` or `apt-get install chromium-headless-shell`; macOS: `brew install --cask chromium`) or Google Chrome, or name one with LOOPSCTL_CHROMIUM=/path/to/chromium';

/**
 * What Chromium puts below its TMPDIR: the socket that keeps one browser to a profile (Chrome's
 * directory, com.google.Chrome.XXXXXX, is shorter). A path too long for it stops Chromium at start.
 */
const SINGLETON_SOCKET = '/org.chromium.Chromium.XXXXXX/SingletonSocket';

/** The longest a protocol call may take: a page of one email is drawn in well under a second. */
const CALL_MS = 60_000;

const FLAGS = [
  '--headless',
  '--remote-debugging-pipe',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-gpu',
  '--disable-extensions',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--hide-scrollbars',
  '--mute-audio',
];

function runnable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The browser to run, or a refusal saying what to install. */
export function findChromium(env: Readonly<Record<string, string | undefined>>): string {
  const named = env.LOOPSCTL_CHROMIUM;
  if (named !== undefined && named !== '') {
    if (runnable(named)) return named;
    throw new UsageError(`LOOPSCTL_CHROMIUM names ${named}, which is not a program that can run: screenshots need Chromium`, { hint: INSTALL_HINT });
  }
  const onPath = (env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => dir !== '')
    .flatMap((dir) => NAMES.map((name) => join(dir, name)));
  const found = [...onPath, ...MACOS].find(runnable);
  if (found === undefined) throw new UsageError('screenshots need Chromium, and none was found (on PATH, nor LOOPSCTL_CHROMIUM)', { hint: INSTALL_HINT });
  return found;
}

/** What to do when the browser found does not run: it is there, so installing it is not the way out. */
function failedHint(program: string): string {
  return `run \`${program} --headless --no-sandbox about:blank\` to see why it stops, or name another browser with LOOPSCTL_CHROMIUM=/path/to/chromium`;
}

/**
 * The line of what the browser said that tells why it stopped: its last fatal one (Chromium's
 * crash reporter writes lines of its own after it), else its last line.
 */
export function lastError(said: string): string | undefined {
  const lines = said
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  return lines.findLast((line) => line.includes(':FATAL:')) ?? lines.at(-1);
}

type Message = { id?: number; method?: string; params?: Record<string, unknown>; result?: unknown; error?: { message: string }; sessionId?: string };

/** A tab of the browser: a protocol call in it. */
export type Tab = (method: string, params?: Record<string, unknown>) => Promise<Record<string, unknown>>;

export interface Chromium {
  /** A new tab: its calls, with every request it makes answered by `load`, or failed without one. */
  tab(load?: ImageLoader): Promise<Tab>;
  close(): Promise<void>;
}

/** Starts the browser; a refusal (exit 2) if it cannot. */
export async function startChromium(program: string, env: Readonly<Record<string, string | undefined>>): Promise<Chromium> {
  const home = socketTempDir('loopsctl-chromium-', SINGLETON_SOCKET.length);
  // Chromium refuses to run as root in its sandbox (a container's CI); a user's run keeps it.
  const sandbox = process.getuid?.() === 0 ? ['--no-sandbox'] : [];
  const child = spawn(program, [...FLAGS, ...sandbox, `--user-data-dir=${join(home, 'profile')}`, 'about:blank'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
    env: { ...env, TMPDIR: home },
  });
  const input = child.stdio[3] as Writable;
  const output = child.stdio[4] as Readable;
  let said = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    said = `${said}${chunk.toString('utf8')}`.slice(-2000);
  });
  const waiting = new Map<number, { resolve: (value: Record<string, unknown>) => void; reject: (error: Error) => void }>();
  const handlers = new Map<string, (message: Message) => void>();
  let ended: Error | undefined;
  const end = (error: Error) => {
    ended ??= error;
    for (const { reject } of waiting.values()) reject(ended);
    waiting.clear();
  };
  let started = false;
  // The browser's end is what says why it stopped: a write to or a read from its pipes after it
  // (EPIPE, ECONNRESET) says nothing more, and must not end loopsctl with a stack.
  input.on('error', () => undefined);
  output.on('error', () => undefined);
  child.on('error', (error) => end(new UsageError(`${program} could not be started: ${error.message}`, { hint: failedHint(program) })));
  // On 'close', once its stderr is read to the end, so that its last words are in the message.
  child.on('close', (code, signal) => {
    const how = signal === null ? `exit code ${code}` : `ended by ${signal}`;
    const last = lastError(said);
    const what = started ? `${program} stopped (${how})` : `${program} was found but did not start (${how})`;
    end(new UsageError(`${what}${last === undefined ? '' : `: ${last}`}`, { hint: failedHint(program) }));
  });
  let buffer = Buffer.alloc(0);
  output.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (let at = buffer.indexOf(0); at >= 0; at = buffer.indexOf(0)) {
      const message = JSON.parse(buffer.subarray(0, at).toString('utf8')) as Message;
      buffer = buffer.subarray(at + 1);
      if (message.id !== undefined) {
        const call = waiting.get(message.id);
        waiting.delete(message.id);
        if (message.error !== undefined) call?.reject(new Error(`Chromium: ${message.error.message}`));
        else call?.resolve((message.result ?? {}) as Record<string, unknown>);
      } else if (message.sessionId !== undefined) handlers.get(message.sessionId)?.(message);
    }
  });
  let next = 1;
  const call = (method: string, params: Record<string, unknown> = {}, sessionId?: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      if (ended !== undefined) return reject(ended);
      const id = next++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new UsageError(`Chromium did not answer ${method} within ${CALL_MS / 1000} s`, { hint: 'run it again; a loaded machine can be slow' }));
      }, CALL_MS);
      waiting.set(id, {
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      input.write(`${JSON.stringify({ id, method, params, ...(sessionId === undefined ? {} : { sessionId }) })}\0`);
    });
  const close = async () => {
    if (ended === undefined) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await call('Browser.close').catch(() => child.kill());
      await exited;
    }
    rmSync(home, { recursive: true, force: true });
  };
  try {
    await call('Browser.getVersion');
    started = true;
  } catch (error) {
    await close();
    throw error;
  }
  return {
    tab: (load) => openTab(call, handlers, load),
    close,
  };
}

/**
 * A new tab, each request it makes held as it is made (the protocol's Fetch domain): the page reads
 * nothing but its own data: images, and what `load` fetched for it; without `load`, every request fails.
 */
async function openTab(
  call: (method: string, params?: Record<string, unknown>, sessionId?: string) => Promise<Record<string, unknown>>,
  handlers: Map<string, (message: Message) => void>,
  load: ImageLoader | undefined,
): Promise<Tab> {
  const { targetId } = await call('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = (await call('Target.attachToTarget', { targetId, flatten: true })) as { sessionId: string };
  const tab: Tab = (method, params) => call(method, params, sessionId);
  const answer = async (requestId: string, request: { url: string; method: string }) => {
    const loaded = load === undefined || request.method !== 'GET' ? undefined : await load(request.url);
    if (loaded === undefined || !('body' in loaded)) return tab('Fetch.failRequest', { requestId, errorReason: 'BlockedByClient' });
    return tab('Fetch.fulfillRequest', {
      requestId,
      responseCode: loaded.status,
      responseHeaders: [{ name: 'content-type', value: loaded.contentType }],
      body: loaded.body.toString('base64'),
    });
  };
  handlers.set(sessionId, (message) => {
    if (message.method !== 'Fetch.requestPaused') return;
    const { requestId, request } = message.params as { requestId: string; request: { url: string; method: string } };
    void answer(requestId, request).catch(() => tab('Fetch.failRequest', { requestId, errorReason: 'Failed' }).catch(() => undefined));
  });
  await tab('Fetch.enable', { patterns: [{ urlPattern: '*' }] });
  return tab;
}
