/**
 * The colours and positions of Foundation for Emails' templates in the corpus (as the project ships
 * them, and as Campaign Monitor and Mailchimp give them) as Chromium draws each source and its
 * converted LMX (test/support/convert-look.ts): a file of their own, so that neither half of the
 * HTML emails takes more than its share of the suite; the others' in convert-look-browser-html.test.ts.
 */
import { expect } from 'vitest';
import { corpusDirectory } from '../../../support/convert-corpus.js';
import { counts, describeLooks } from '../../../support/convert-look.js';

describeLooks("Foundation for Emails' HTML", /^foundation-emails[^/]*\/.*\.html$/, corpusDirectory, (looks) => {
  expect(looks.filter((look) => look.unmatched > 0).map((look) => look.file)).toEqual([]);
  expect(counts(looks)).toMatchInlineSnapshot(`
    {
      "foundation-emails-cm/drip.html": "colours 5/5 (model 9/9), positions 7/12 (model 16/16)",
      "foundation-emails-cm/hero.html": "colours 12/12 (model 20/20), positions 13/13 (model 21/21)",
      "foundation-emails-cm/marketing.html": "colours 13/13 (model 16/16), positions 16/22 (model 26/27)",
      "foundation-emails-cm/newsletter.html": "colours 7/7 (model 15/15), positions 8/8 (model 12/12)",
      "foundation-emails-cm/password.html": "colours 5/5 (model 6/6), positions 5/6 (model 7/8)",
      "foundation-emails-cm/sidebar-hero.html": "colours 21/21 (model 29/29), positions 18/22 (model 28/32)",
      "foundation-emails-mc/basic.html": "colours 10/10 (model 16/16), positions 10/10 (model 16/16)",
      "foundation-emails-mc/drip.html": "colours 5/5 (model 9/9), positions 7/12 (model 16/16)",
      "foundation-emails-mc/hero.html": "colours 12/12 (model 20/20), positions 13/13 (model 21/21)",
      "foundation-emails-mc/marketing.html": "colours 13/13 (model 16/16), positions 16/22 (model 26/27)",
      "foundation-emails-mc/newsletter-2.html": "colours 9/9 (model 14/14), positions 10/11 (model 15/16)",
      "foundation-emails-mc/newsletter.html": "colours 7/7 (model 15/15), positions 8/8 (model 12/12)",
      "foundation-emails-mc/password.html": "colours 5/5 (model 6/6), positions 5/6 (model 7/8)",
      "foundation-emails-mc/sidebar-hero.html": "colours 21/21 (model 29/29), positions 18/22 (model 28/32)",
      "foundation-emails-mc/sidebar.html": "colours 18/18 (model 25/25), positions 14/18 (model 24/28)",
      "foundation-emails-mc/welcome.html": "colours 3/3 (model 13/13), positions 4/4 (model 14/14)",
      "foundation-emails/basic.html": "colours 10/10 (model 16/16), positions 10/10 (model 16/16)",
      "foundation-emails/drip.html": "colours 5/5 (model 11/11), positions 7/12 (model 16/16)",
      "foundation-emails/hero.html": "colours 12/12 (model 21/21), positions 13/13 (model 22/22)",
      "foundation-emails/marketing.html": "colours 13/13 (model 19/19), positions 16/22 (model 26/27)",
      "foundation-emails/newsletter-2.html": "colours 9/9 (model 15/15), positions 10/11 (model 15/16)",
      "foundation-emails/newsletter.html": "colours 7/7 (model 16/16), positions 8/8 (model 12/12)",
      "foundation-emails/order.html": "colours 16/16 (model 19/19), positions 17/17 (model 20/20)",
      "foundation-emails/password.html": "colours 5/5 (model 7/7), positions 5/6 (model 7/8)",
      "foundation-emails/sidebar-hero.html": "colours 21/21 (model 30/30), positions 18/22 (model 29/33)",
      "foundation-emails/sidebar.html": "colours 18/18 (model 26/26), positions 14/18 (model 25/29)",
      "foundation-emails/welcome.html": "colours 3/3 (model 13/13), positions 4/4 (model 14/14)",
    }
  `);
});
