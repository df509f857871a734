/**
 * Convert's model of the renderer held to Chromium's drawing of the converted LMX
 * (test/support/convert-lmx-browser.ts), for the corpus's MJML emails: a file of their own, so that
 * neither half takes more than its share of the suite; the HTML emails' in convert-lmx-browser.test.ts.
 */
import { expect } from 'vitest';
import { describeLmxAgainstModel } from '../../../support/convert-lmx-browser.js';

describeLmxAgainstModel('MJML', /\.mjml$/, ({ measured, off, squeezed, widened }) => {
  // Measured: 158 blocks, none apart (Covalent's wrapped columns are rows of <Columns>, a block a row; Vendure's
  // order summary, on the white beside its off-white sections, is one <Section>).
  expect(measured).toBeGreaterThan(150);
  expect(squeezed).toEqual([]);
  expect(widened).toEqual([]);
  expect(off).toEqual([]);
});
