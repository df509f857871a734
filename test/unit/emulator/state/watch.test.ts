import type { FSWatcher } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QUIET_MS, StateFileWatch, type WatchDirectory } from '../../../../src/emulator/state/watch.js';

/** A directory watch that records what was watched and lets the test report file events. */
function fakeWatches() {
  const taken: { directory: string; options: object; closed: boolean; report(name: string | null): void }[] = [];
  const watch: WatchDirectory = (directory, options, listener) => {
    const entry = { directory, options, closed: false, report: (name: string | null) => listener('change', name) };
    taken.push(entry);
    return { close: () => void (entry.closed = true) } as unknown as FSWatcher;
  };
  const open = () => taken.filter((entry) => !entry.closed);
  return { taken, open, watch };
}

/** A server's watch of /srv/sandbox/state.db, on fake watches. */
function watching() {
  const watches = fakeWatches();
  const changed = vi.fn();
  return { watches, changed, stateFile: new StateFileWatch('/srv/sandbox/state.db', changed, watches.watch) };
}

describe('the watch a server keeps on its state file', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('watches the file’s directory, and hears of the file and its write-ahead log alone', () => {
    const { watches, changed, stateFile } = watching();
    // Never what keeps a process alive.
    expect(watches.open().map(({ directory, options }) => ({ directory, options }))).toEqual([{ directory: '/srv/sandbox', options: { persistent: false } }]);
    const [watch] = watches.open();
    watch!.report('state.db-wal');
    watch!.report('state.db');
    watch!.report('state.db-shm');
    watch!.report('other.db');
    watch!.report(null);
    expect(changed).toHaveBeenCalledTimes(2);
    stateFile.close();
    expect(watches.open()).toEqual([]);
  });

  it('lets the watch go while requests are answered, and takes it again once none has come for a quiet moment, with one look', () => {
    const { watches, changed, stateFile } = watching();
    stateFile.requestStarted();
    stateFile.requestStarted();
    // The kernel would report every page this server writes while answering.
    expect(watches.open()).toEqual([]);
    stateFile.requestEnded();
    vi.advanceTimersByTime(QUIET_MS * 2);
    expect(watches.open()).toEqual([]);
    stateFile.requestEnded();
    vi.advanceTimersByTime(QUIET_MS - 1);
    expect(watches.open()).toEqual([]);
    // A request that comes and goes within the quiet moment starts it again.
    stateFile.requestStarted();
    stateFile.requestEnded();
    vi.advanceTimersByTime(QUIET_MS - 1);
    expect(watches.open()).toEqual([]);
    expect(changed).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(watches.open()).toHaveLength(1);
    // What another process wrote while the watch was let go is looked for once.
    expect(changed).toHaveBeenCalledTimes(1);
    expect(watches.taken).toHaveLength(2);
    stateFile.close();
  });

  it('takes nothing again once closed, nor when a request answered meanwhile ends', () => {
    const { watches, changed, stateFile } = watching();
    stateFile.requestStarted();
    stateFile.requestEnded();
    stateFile.requestStarted();
    stateFile.close();
    stateFile.requestEnded();
    vi.advanceTimersByTime(QUIET_MS * 2);
    expect(watches.open()).toEqual([]);
    expect(changed).not.toHaveBeenCalled();
  });

  it('serves on without file events where the directory cannot be watched, and tries again after the next requests', () => {
    let refusals = 1;
    const watches = fakeWatches();
    const changed = vi.fn();
    const stateFile = new StateFileWatch('/srv/sandbox/state.db', changed, (...parameters) => {
      if (refusals-- > 0) throw Object.assign(new Error('ENOSPC: System limit for number of file watchers reached'), { code: 'ENOSPC' });
      return watches.watch(...parameters);
    });
    expect(watches.open()).toEqual([]);
    stateFile.requestStarted();
    stateFile.requestEnded();
    vi.advanceTimersByTime(QUIET_MS);
    expect(watches.open()).toHaveLength(1);
    stateFile.close();
  });
});
