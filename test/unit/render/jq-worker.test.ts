import { afterEach, describe, expect, it } from 'vitest';
import { type JqWorker, releaseWorker, takeWorker } from '../../../src/render/jq-worker.js';

const MB = 1024 * 1024;
const OUTPUT = 8 * MB;
const taken: JqWorker[] = [];

async function take(memoryMb = 256): Promise<JqWorker> {
  const worker = await takeWorker(memoryMb, OUTPUT);
  taken.push(worker);
  return worker;
}

/** Resolves once the thread has ended (a thread that has ended has no id left). */
function ended(worker: JqWorker): Promise<void> {
  return worker.thread.threadId === -1 ? Promise.resolve() : new Promise((resolve) => worker.thread.once('exit', () => resolve()));
}

afterEach(async () => {
  // Whatever is kept is taken back and ended with the rest.
  taken.push(await takeWorker(256, OUTPUT));
  await Promise.all(taken.splice(0).map((worker) => worker.thread.terminate()));
});

describe('the jq workers a process keeps', () => {
  it('hands the worker of a run that ended as jq ends to the next run of the same memory limit', async () => {
    const first = await take();
    releaseWorker(first, 2 * MB);
    expect(await take()).toBe(first);
  });

  it('starts another for a run of another memory limit, ending the one kept', async () => {
    const first = await take();
    releaseWorker(first, 2 * MB);
    const second = await take(128);
    expect(second).not.toBe(first);
    await ended(first);
  });

  it('ends a worker whose jq memory grew past 64 MiB rather than keeping it', async () => {
    const first = await take();
    releaseWorker(first, 64 * MB + 1);
    expect(await take()).not.toBe(first);
    await ended(first);
  });

  it('keeps one of 64 MiB', async () => {
    const first = await take();
    releaseWorker(first, 64 * MB);
    expect(await take()).toBe(first);
  });

  it('ends a worker whose run was stopped, which may be in any state', async () => {
    const first = await take();
    releaseWorker(first, undefined);
    expect(await take()).not.toBe(first);
    await ended(first);
  });

  it('keeps one worker at most', async () => {
    const [first, second] = [await take(), await take()];
    releaseWorker(first, 2 * MB);
    releaseWorker(second, 2 * MB);
    await ended(second);
    expect(await take()).toBe(first);
  });

  it('starts under a limit too small for a thread’s heap, which would end the process', async () => {
    const worker = await take(1);
    await new Promise((resolve) => worker.thread.once('online', resolve));
    expect(worker.thread.threadId).not.toBe(-1);
  });

  it('forgets a kept worker that fails while it waits, without ending the process', async () => {
    const first = await take();
    releaseWorker(first, 2 * MB);
    first.thread.emit('error', new Error('failed while idle'));
    expect(await take()).not.toBe(first);
  });
});
