/**
 * The colours and positions of Foundation for Emails' templates in the corpus (as the project ships
 * them, and as Campaign Monitor and Mailchimp give them) as Chromium draws each source and its
 * converted LMX (test/support/convert-look.ts): a file of their own, so that neither half of the
 * HTML emails takes more than its share of the suite; the others' in convert-look-browser-html.test.ts.
 */
import { expect } from 'vitest';
import { corpusDirectory } from '../../../support/convert-corpus.js';
import { counts, describeLooks, readableWords, uncountedLosses } from '../../../support/convert-look.js';

describeLooks("Foundation for Emails' HTML", /^foundation-emails[^/]*\/.*\.html$/, corpusDirectory, (looks) => {
  expect(looks.filter((look) => look.unmatched > 0).map((look) => look.file)).toEqual([]);
  expect(counts(looks)).toMatchInlineSnapshot(`
    {
      "foundation-emails-cm/drip.html": "colours 13/13 (model 17/17), positions 7/12 (model 16/16)",
      "foundation-emails-cm/hero.html": "colours 15/15 (model 23/23), positions 13/13 (model 21/21)",
      "foundation-emails-cm/marketing.html": "colours 24/24 (model 27/27), positions 16/22 (model 26/27)",
      "foundation-emails-cm/newsletter.html": "colours 8/8 (model 16/16), positions 8/8 (model 12/12)",
      "foundation-emails-cm/password.html": "colours 7/7 (model 8/8), positions 5/6 (model 7/8)",
      "foundation-emails-cm/sidebar-hero.html": "colours 27/27 (model 35/35), positions 18/22 (model 28/32)",
      "foundation-emails-mc/basic.html": "colours 11/11 (model 17/17), positions 10/10 (model 16/16)",
      "foundation-emails-mc/drip.html": "colours 13/13 (model 17/17), positions 7/12 (model 16/16)",
      "foundation-emails-mc/hero.html": "colours 15/15 (model 23/23), positions 13/13 (model 21/21)",
      "foundation-emails-mc/marketing.html": "colours 24/24 (model 27/27), positions 16/22 (model 26/27)",
      "foundation-emails-mc/newsletter-2.html": "colours 11/11 (model 16/16), positions 10/11 (model 15/16)",
      "foundation-emails-mc/newsletter.html": "colours 8/8 (model 16/16), positions 8/8 (model 12/12)",
      "foundation-emails-mc/password.html": "colours 7/7 (model 8/8), positions 5/6 (model 7/8)",
      "foundation-emails-mc/sidebar-hero.html": "colours 27/27 (model 35/35), positions 18/22 (model 28/32)",
      "foundation-emails-mc/sidebar.html": "colours 23/23 (model 30/30), positions 14/18 (model 24/28)",
      "foundation-emails-mc/welcome.html": "colours 4/4 (model 14/14), positions 4/4 (model 14/14)",
      "foundation-emails/basic.html": "colours 11/11 (model 17/17), positions 10/10 (model 16/16)",
      "foundation-emails/drip.html": "colours 13/13 (model 19/19), positions 7/12 (model 16/16)",
      "foundation-emails/hero.html": "colours 15/15 (model 24/24), positions 13/13 (model 22/22)",
      "foundation-emails/marketing.html": "colours 24/24 (model 30/30), positions 16/22 (model 26/27)",
      "foundation-emails/newsletter-2.html": "colours 11/11 (model 17/17), positions 10/11 (model 15/16)",
      "foundation-emails/newsletter.html": "colours 8/8 (model 17/17), positions 8/8 (model 12/12)",
      "foundation-emails/order.html": "colours 17/17 (model 20/20), positions 17/17 (model 20/20)",
      "foundation-emails/password.html": "colours 7/7 (model 9/9), positions 5/6 (model 7/8)",
      "foundation-emails/sidebar-hero.html": "colours 27/27 (model 36/36), positions 18/22 (model 29/33)",
      "foundation-emails/sidebar.html": "colours 23/23 (model 31/31), positions 14/18 (model 25/29)",
      "foundation-emails/welcome.html": "colours 4/4 (model 14/14), positions 4/4 (model 14/14)",
    }
  `);
  expect(readableWords(looks)).toMatchInlineSnapshot(`
    {
      "foundation-emails-cm/drip.html": "600 91 → 87, 375 91 → 87 (fidelity 90/94)",
      "foundation-emails-cm/hero.html": "600 108 → 106, 375 108 → 106 (fidelity 118/119)",
      "foundation-emails-cm/marketing.html": "600 112 → 103, 375 112 → 103 (fidelity 103/112)",
      "foundation-emails-cm/newsletter.html": "600 102 → 102, 375 102 → 102 (fidelity 116/120)",
      "foundation-emails-cm/password.html": "600 18 → 18, 375 18 → 18 (fidelity 40/42)",
      "foundation-emails-cm/sidebar-hero.html": "600 207 → 205, 375 207 → 205 (fidelity 232/233)",
      "foundation-emails-mc/basic.html": "600 116 → 117, 375 116 → 117 (fidelity 122/122)",
      "foundation-emails-mc/drip.html": "600 91 → 87, 375 91 → 87 (fidelity 90/94)",
      "foundation-emails-mc/hero.html": "600 107 → 106, 375 107 → 106 (fidelity 118/119)",
      "foundation-emails-mc/marketing.html": "600 113 → 103, 375 113 → 103 (fidelity 103/113)",
      "foundation-emails-mc/newsletter-2.html": "600 180 → 176, 375 180 → 176 (fidelity 176/180)",
      "foundation-emails-mc/newsletter.html": "600 106 → 102, 375 106 → 102 (fidelity 116/120)",
      "foundation-emails-mc/password.html": "600 20 → 18, 375 20 → 18 (fidelity 40/42)",
      "foundation-emails-mc/sidebar-hero.html": "600 206 → 205, 375 206 → 205 (fidelity 232/233)",
      "foundation-emails-mc/sidebar.html": "600 175 → 174, 375 175 → 174 (fidelity 199/200)",
      "foundation-emails-mc/welcome.html": "600 58 → 58, 375 58 → 58 (fidelity 58/58)",
      "foundation-emails/basic.html": "600 118 → 118, 375 118 → 118 (fidelity 124/124)",
      "foundation-emails/drip.html": "600 91 → 91, 375 91 → 91 (fidelity 94/94)",
      "foundation-emails/hero.html": "600 109 → 109, 375 109 → 109 (fidelity 121/121)",
      "foundation-emails/marketing.html": "600 110 → 110, 375 110 → 110 (fidelity 110/110)",
      "foundation-emails/newsletter-2.html": "600 180 → 180, 375 180 → 180 (fidelity 180/180)",
      "foundation-emails/newsletter.html": "600 106 → 106, 375 106 → 106 (fidelity 120/120)",
      "foundation-emails/order.html": "600 147 → 147, 375 147 → 147 (fidelity 147/147)",
      "foundation-emails/password.html": "600 20 → 20, 375 20 → 20 (fidelity 42/42)",
      "foundation-emails/sidebar-hero.html": "600 208 → 208, 375 208 → 208 (fidelity 235/235)",
      "foundation-emails/sidebar.html": "600 175 → 175, 375 175 → 175 (fidelity 200/200)",
      "foundation-emails/welcome.html": "600 58 → 58, 375 58 → 58 (fidelity 58/58)",
    }
  `);
  expect(uncountedLosses(looks)).toEqual([]);
});
