/**
 * How a server hears of another process's change to its state file (a `--sandbox` command's, a
 * `sandbox reset`): its deliveries are then sent, and its inbox follows the mail.
 *
 * The state file's directory is watched, as the file is replaced by a rename and a change is
 * written to its write-ahead log. But the kernel reports every page written there, this process's
 * own too: a server answering a stream of writes spent about a tenth of its time on the watch. So
 * the watch is let go while requests are being answered, as each answer reads the state the file
 * holds and looks for what is due anyway, and is taken again once no request has come for a quiet
 * moment, with one look for what another process wrote meanwhile.
 */
import { type FSWatcher, watch as watchDirectory } from 'node:fs';
import { basename, dirname } from 'node:path';

/** How long no request comes before the watch is taken again. */
export const QUIET_MS = 50;

export type WatchDirectory = (directory: string, options: { persistent: false }, listener: (event: string, name: string | null) => void) => FSWatcher;

export class StateFileWatch {
  private watcher: FSWatcher | undefined;
  private answering = 0;
  private quiet: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly stateFile: string,
    /** Called on another process's change, and once when the watch is taken again. */
    private readonly changed: () => void,
    private readonly watch: WatchDirectory = watchDirectory as WatchDirectory,
  ) {
    this.watcher = this.taken();
  }

  /** A request is being answered: the watch is let go until the requests stop. */
  requestStarted(): void {
    this.answering += 1;
    this.watcher?.close();
    this.watcher = undefined;
  }

  requestEnded(): void {
    this.answering -= 1;
    // One timer, pushed back by each request that ends within the quiet moment.
    (this.quiet ??= setTimeout(() => this.resume(), QUIET_MS).unref()).refresh();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.quiet);
    this.watcher?.close();
    this.watcher = undefined;
  }

  private resume(): void {
    if (this.answering > 0 || this.closed) return;
    this.watcher = this.taken();
    this.changed();
  }

  private taken(): FSWatcher | undefined {
    const names = new Set<string | null>([basename(this.stateFile), `${basename(this.stateFile)}-wal`]);
    try {
      return this.watch(dirname(this.stateFile), { persistent: false }, (_event, name) => {
        if (names.has(name)) this.changed();
      });
    } catch {
      // Without file events, deliveries queued elsewhere wait for this server's next request.
      return undefined;
    }
  }
}
