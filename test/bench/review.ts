/**
 * `content review` of a change that touches 42 emails (both themes' button colour, so every email
 * of the review tree changes), with the HTML page written: the built loopsctl run against a git
 * repository in the benchmark's scratch directory, its wall time the median of a few runs. The
 * goals are the issue's: under 10 s for 40 emails at two widths without a browser, under 60 s with
 * screenshots (--screenshots, Chromium drawing each email on both sides at both widths).
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ALL_EMAILS, reviewRepositoryIn } from '../support/review-tree.js';
import { median, run } from './measure.js';

const ROUNDS = 5;
/** Screenshots take longer: fewer rounds. */
const SCREENSHOT_ROUNDS = 3;

export interface ReviewFigure {
  emails: number;
  ms: number;
  pageBytes: number;
  /** The same review with --screenshots; undefined where no Chromium runs (the run says what to install). */
  screenshots?: { ms: number; pageBytes: number } | { skipped: string };
}

export async function measureReview(bin: string, scratch: string, env: Record<string, string>): Promise<ReviewFigure> {
  const repository = join(scratch, 'review');
  mkdirSync(repository);
  const root = reviewRepositoryIn(repository);
  for (const theme of ['themes/ocean--th1/theme.json', 'themes/ember--th2/theme.json']) {
    const file = join(root, theme);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/"buttonBodyColor":"#[0-9a-f]{6}"/, '"buttonBodyColor":"#111111"'));
  }
  const page = join(scratch, 'review.html');
  const samples: number[] = [];
  let emails = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    const ran = await run({ label: 'loopsctl content review', args: [bin, 'content', 'review', root, '--base', 'HEAD', '--out', page, '--json'] }, env);
    emails = (JSON.parse(ran.stdout) as { emails: unknown[] }).emails.length;
    samples.push(ran.ms);
  }
  if (emails !== ALL_EMAILS.length) throw new Error(`the review listed ${emails} emails, not the ${ALL_EMAILS.length} the change touches`);
  const pageBytes = statSync(page).size;
  return { emails, ms: median(samples), pageBytes, screenshots: await withScreenshots(bin, root, join(scratch, 'review-shots.html'), env) };
}

async function withScreenshots(bin: string, root: string, page: string, env: Record<string, string>): Promise<ReviewFigure['screenshots']> {
  const samples: number[] = [];
  for (let round = 0; round < SCREENSHOT_ROUNDS; round += 1) {
    try {
      const args = [bin, 'content', 'review', root, '--base', 'HEAD', '--out', page, '--screenshots', '--json'];
      samples.push((await run({ label: 'loopsctl content review --screenshots', args }, env)).ms);
    } catch (error) {
      const message = (error as Error).message;
      if (message.includes('screenshots need Chromium')) return { skipped: message.slice(message.indexOf('screenshots need Chromium')).split('\n')[0]! };
      throw error;
    }
  }
  return { ms: median(samples), pageBytes: statSync(page).size };
}
