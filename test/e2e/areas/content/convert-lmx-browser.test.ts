/**
 * Convert's model of the renderer held to Chromium's drawing of the converted LMX
 * (test/support/convert-lmx-browser.ts), for the corpus's MJML and HTML emails; React Email's in
 * convert-lmx-browser-react.test.ts.
 */
import { expect } from 'vitest';
import { describeLmxAgainstModel } from '../../../support/convert-lmx-browser.js';

describeLmxAgainstModel('MJML and HTML', /\.(mjml|html)$/, ({ measured, off, squeezed, widened }) => {
  expect(measured).toBeGreaterThan(1000);
  expect(squeezed).toEqual([]);
  expect(widened).toEqual([]);
  // Measured: 10 of 1082 apart, in 1 of 61 emails, at 375 px: a word no browser breaks (mailpace's reset address
  // written out as text) widens the page past a phone's screen, and every block with it, as it widens the source's;
  // the model takes the body as fitting the screen.
  const apart = new Set(off.map((line) => line.slice(0, line.indexOf(' block '))));
  expect(off.length / measured).toBeLessThan(0.01);
  expect(apart.size).toBeLessThanOrEqual(1);
  expect(off.every((line) => line.includes(' at 375: '))).toBe(true);
});
