/**
 * An email as its author writes it, its styles in a `<style>` of classes, converts as the same email
 * with those styles inlined on each element by the build that sends it: Lee Munroe's template
 * against the inlined build its package ships, and Mailgen's four themes against Mailgen's own
 * output, inlined by juice. Two readers of the cascade, a browser's rules applied by convert and
 * juice's, agree on every block.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertDocument } from '../../../src/convert/document.js';
import { Findings } from '../../../src/convert/model.js';
import { readHtml } from '../../../src/convert/sources/html-source.js';
import { corpusDirectory } from '../../support/convert-corpus.js';

const CORPUS = corpusDirectory();

const TWINS: [string, string][] = [
  ['html-leemunroe/email-styled.html', 'html-leemunroe/email.html'],
  ...['default', 'cerberus', 'salted', 'neopolitan'].map((theme): [string, string] => [
    `html-mailgen/${theme}-receipt-styled.html`,
    `html-mailgen/${theme}-receipt.html`,
  ]),
];

function converted(file: string) {
  const findings = new Findings();
  const document = readHtml(readFileSync(join(CORPUS, file), 'utf8'), file, findings);
  const { lmx, previewText } = convertDocument(document, 'transactional', findings);
  return { lmx, previewText, subject: document.subject };
}

describe('an email’s stylesheet applied as its inlined build applies it', () => {
  it.each(TWINS)('%s converts as %s', (styled, inlined) => {
    const source = readFileSync(join(CORPUS, styled), 'utf8');
    // The written form styles its classes in a <style>; the inlined one on each element.
    expect(source).toMatch(/<style[^>]*>[^<]*\.[a-z][\w-]*\s*\{/i);
    expect(converted(styled)).toEqual(converted(inlined));
  });
});
