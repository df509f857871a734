/**
 * `metrics history --out history.html` against the sandbox, opened in Chromium with the network
 * off: the page loads nothing but itself, draws the delivery rate a day with its line broken at
 * the gap (which is shaded), says that history starts with the first snapshot, and holds the
 * numbers --json gives. Like every --out of loopsctl's, it replaces a regular file whole and
 * refuses to write through a link.
 */
import { readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeBrowser, keepScreenshot } from '../../../support/browser.js';
import { run, tempDir } from '../../../support/main.js';
import { ok, send, WELCOME } from './sandbox-sends.js';

describe('the history page', () => {
  const chromium = describeBrowser();
  const dir = tempDir('loopsctl-history-page-');
  const env = { LOOPSCTL_CONFIG_DIR: join(dir, 'config') };
  const page = join(dir, 'history.html');
  const first = new Date(Date.now() + 20 * 86_400_000);
  first.setUTCHours(9, 0, 0, 0);
  const day = (offset: number) => new Date(first.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
  let json: unknown;

  beforeAll(async () => {
    // Day 0 the first snapshot; day 1 four sends, all delivered; day 2 no snapshot; day 3 four
    // sends, half delivered; day 4 four sends, all delivered.
    await ok(['sandbox', 'clock', 'set', first.toISOString()], env);
    await ok(['--sandbox', 'metrics', 'snapshot'], env);
    await send(4, env);
    await ok(['sandbox', 'clock', 'advance', '1d'], env);
    await ok(['--sandbox', 'metrics', 'snapshot'], env);
    await ok(['sandbox', 'clock', 'advance', '1d'], env);
    await ok(['sandbox', 'engagement', '--email', WELCOME, '--delivery-rate', '0.5'], env);
    await send(4, env);
    await ok(['sandbox', 'clock', 'advance', '1d'], env);
    await ok(['--sandbox', 'metrics', 'snapshot'], env);
    await ok(['sandbox', 'engagement', '--email', WELCOME], env);
    await send(4, env);
    await ok(['sandbox', 'clock', 'advance', '1d'], env);
    await ok(['--sandbox', 'metrics', 'snapshot'], env);
    const written = await ok(['metrics', 'history', WELCOME, '--out', page], env);
    expect(written.stderr).toContain(`Wrote the history of transactional/${WELCOME} "Welcome" to ${page}.`);
    json = (await ok(['metrics', 'history', WELCOME, '--json'], env)).json();
    return () => rmSync(dir, { recursive: true, force: true });
  });

  it('draws the delivery rate a day, its line broken at the gap, which is shaded, and loads nothing but itself', async (context) => {
    const tab = await chromium(context, 'the history page drawn').page(1000);
    await tab.context().setOffline(true);
    const requests: string[] = [];
    tab.on('request', (request) => requests.push(request.url()));
    await tab.goto(pathToFileURL(page).href);
    const delivery = tab.locator('figure[data-chart="deliveries"]');
    await expect.poll(() => delivery.locator('circle').count()).toBe(3);
    const points = await delivery.locator('circle').evaluateAll((circles) =>
      circles.map((circle) => {
        const { x, y } = circle.getBoundingClientRect();
        return { period: circle.getAttribute('data-period'), rate: Number(circle.getAttribute('data-rate')), x, y };
      }),
    );
    expect(points.map(({ period, rate }) => [period, rate])).toEqual([
      [day(1), 1],
      // Day 3 counts from day 1's snapshot, across the gap: the four sends of day 2, two delivered.
      [day(3), 0.5],
      [day(4), 1],
    ]);
    // Drawn where the browser laid them out: each point to the right of the one before, the lower rate lower.
    expect(points[0]!.x).toBeLessThan(points[1]!.x);
    expect(points[1]!.x).toBeLessThan(points[2]!.x);
    expect(points[1]!.y).toBeGreaterThan(points[0]!.y);
    // One line, from day 3 to day 4: none bridges the gap of day 2, which is a shaded band between them.
    expect(await delivery.locator('path.line').evaluateAll((paths) => paths.map((path) => path.getAttribute('data-run')))).toEqual([`${day(3)}..${day(4)}`]);
    const gap = delivery.locator(`rect[data-gap="${day(2)}"]`);
    const band = (await gap.boundingBox())!;
    expect(band.width).toBeGreaterThan(0);
    expect(band.x).toBeGreaterThan(points[0]!.x);
    expect(band.x + band.width).toBeLessThan(points[1]!.x);
    expect(
      await gap.evaluate(
        (rect) => (rect.ownerDocument.defaultView as unknown as { getComputedStyle(element: unknown): { fill: string } }).getComputedStyle(rect).fill,
      ),
    ).not.toBe('none');
    // The start said, and the table's rows as the terminal's.
    await expect.poll(() => tab.locator('p.said').textContent()).toContain('history starts with its first snapshot');
    expect(await tab.locator(`tr[data-period="${day(2)}"]`).textContent()).toContain('no snapshot: a gap');
    await keepScreenshot(tab, 'metrics-history-page');
    expect(requests.filter((url) => !url.startsWith('file:'))).toEqual([]);
  });

  it('holds the numbers --json gives', async (context) => {
    const tab = await chromium(context, 'the history page read').page(1000);
    await tab.goto(pathToFileURL(page).href);
    expect(JSON.parse((await tab.locator('#history-json').textContent())!)).toEqual(json);
  });

  it('fits a 600 px window and a phone: the page no wider than the window, the table scrolling in its own box', async (context) => {
    for (const width of [600, 375]) {
      const tab = await chromium(context, `the history page at ${width} px`).page(width);
      await tab.goto(pathToFileURL(page).href);
      const sizes = await tab.evaluate(() => {
        const { documentElement } = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document;
        return { page: documentElement.scrollWidth, window: documentElement.clientWidth };
      });
      expect(sizes.page, `at ${width} px`).toBeLessThanOrEqual(sizes.window);
      // A note wraps in a column of its own width, not into a sliver that makes its row tall.
      const row = (await tab.locator(`tr[data-period="${day(3)}"]`).boundingBox())!;
      const line = (await tab.locator(`tr[data-period="${day(1)}"]`).boundingBox())!;
      expect(row.height, `at ${width} px`).toBeLessThan(line.height * 2.5);
    }
  });

  it('replaces a regular file whole, as every --out does, and refuses a link there, writing nothing', async () => {
    const other = join(dir, 'other.html');
    writeFileSync(other, 'an older page');
    await ok(['metrics', 'history', WELCOME, '--out', other], env);
    expect(readFileSync(other, 'utf8')).toMatch(/^<!doctype html>/);
    const target = join(dir, 'target.txt');
    writeFileSync(target, 'kept');
    const link = join(dir, 'link.html');
    symlinkSync(target, link);
    const refused = await run(['metrics', 'history', WELCOME, '--out', link], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('is a symbolic link');
    expect(readFileSync(target, 'utf8')).toBe('kept');
  });
});
