/**
 * Convert's model of the renderer held to Chromium's drawing of the converted LMX
 * (test/support/convert-lmx-browser.ts), for the corpus's HTML emails but Foundation for Emails'
 * templates, which convert-lmx-browser-foundation.test.ts draws; its MJML emails' in
 * convert-lmx-browser-mjml.test.ts, React Email's in convert-lmx-browser-react.test.ts.
 */
import { expect } from 'vitest';
import { describeLmxAgainstModel } from '../../../support/convert-lmx-browser.js';

describeLmxAgainstModel('HTML', /^(?!foundation-emails).*\.html$/, ({ measured, off, squeezed, widened }) => {
  // Measured: 534 blocks, none apart.
  expect(measured).toBeGreaterThan(500);
  expect(squeezed).toEqual([]);
  expect(widened).toEqual([]);
  expect(off).toEqual([]);
});
