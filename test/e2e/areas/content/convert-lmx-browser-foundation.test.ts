/**
 * Convert's model of the renderer held to Chromium's drawing of the converted LMX
 * (test/support/convert-lmx-browser.ts), for Foundation for Emails' templates in the corpus (as the
 * project ships them, and as Campaign Monitor and Mailchimp give them): a file of their own, so that
 * neither half of the HTML emails takes more than its share of the suite; the others'
 * in convert-lmx-browser.test.ts.
 */
import { expect } from 'vitest';
import { describeLmxAgainstModel } from '../../../support/convert-lmx-browser.js';

describeLmxAgainstModel("Foundation for Emails' HTML", /^foundation-emails[^/]*\/.*\.html$/, ({ measured, off, squeezed, widened }) => {
  // Measured: 446 blocks in 26 emails, none apart.
  expect(measured).toBeGreaterThan(420);
  expect(squeezed).toEqual([]);
  expect(widened).toEqual([]);
  expect(off).toEqual([]);
});
