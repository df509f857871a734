import { describe, expect, it } from 'vitest';
import { batchedLines } from '../../../src/base/line-batch.js';

describe('a log whose lines of one run of microtasks go out together', () => {
  it('writes the lines logged together in one write, each ended', async () => {
    const writes: string[] = [];
    const log = batchedLines((text) => writes.push(text));
    log('first');
    log('');
    log('third');
    expect(writes).toEqual([]);
    await Promise.resolve();
    expect(writes).toEqual(['first\n\nthird\n']);
    log('later');
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(['first\n\nthird\n', 'later\n']);
  });

  it('writes a line before whatever its caller goes on to do once it has returned: a server’s answers', async () => {
    const events: string[] = [];
    const log = batchedLines((text) => events.push(`wrote ${text.trim().split('\n').join(', ')}`));
    // As a server answering a group at once: each request's line, then its answer sent.
    const answer = async (name: string) => {
      await Promise.resolve();
      log(name);
      return name;
    };
    await Promise.all(['a', 'b', 'c'].map(async (name) => events.push(`sent ${await answer(name)}`)));
    expect(events).toEqual(['wrote a, b, c', 'sent a', 'sent b', 'sent c']);
  });
});
