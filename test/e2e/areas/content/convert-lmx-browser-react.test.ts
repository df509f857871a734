/**
 * Convert's model of the renderer held to Chromium's drawing of the converted LMX
 * (test/support/convert-lmx-browser.ts), for the corpus's React Email emails; MJML's and HTML's in
 * convert-lmx-browser.test.ts.
 */
import { expect } from 'vitest';
import { describeLmxAgainstModel } from '../../../support/convert-lmx-browser.js';

describeLmxAgainstModel('React Email', /\.tsx$/, ({ measured, off, squeezed, widened }) => {
  // Measured: 170 blocks in the 10 templates, none apart.
  expect(measured).toBeGreaterThan(160);
  expect(squeezed).toEqual([]);
  expect(widened).toEqual([]);
  expect(off).toEqual([]);
});
