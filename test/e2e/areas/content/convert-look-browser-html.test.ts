/**
 * The colours and positions of the corpus's HTML emails but Foundation for Emails' templates (which
 * convert-look-browser-foundation.test.ts draws) as Chromium draws each source and its converted
 * LMX (test/support/convert-look.ts).
 */
import { expect } from 'vitest';
import { corpusDirectory } from '../../../support/convert-corpus.js';
import { counts, describeLooks } from '../../../support/convert-look.js';

describeLooks('HTML', /^(?!foundation-emails).*\.html$/, corpusDirectory, (looks) => {
  expect(looks.filter((look) => look.unmatched > 0).map((look) => look.file)).toEqual([]);
  expect(counts(looks)).toMatchInlineSnapshot(`
    {
      "html-leemunroe/email-styled.html": "colours 9/9 (model 8/8), positions 6/7 (model 6/7)",
      "html-leemunroe/email.html": "colours 9/9 (model 8/8), positions 6/7 (model 6/7)",
      "html-mailgen/cerberus-readme-action.html": "colours 12/13 (model 10/11), positions 10/10 (model 10/10)",
      "html-mailgen/cerberus-readme-table.html": "colours 12/13 (model 12/13), positions 12/12 (model 12/12)",
      "html-mailgen/cerberus-receipt-styled.html": "colours 11/12 (model 10/11), positions 11/11 (model 11/11)",
      "html-mailgen/cerberus-receipt.html": "colours 11/12 (model 10/11), positions 11/11 (model 11/11)",
      "html-mailgen/cerberus-reset.html": "colours 8/9 (model 7/8), positions 8/8 (model 8/8)",
      "html-mailgen/cerberus-welcome.html": "colours 8/9 (model 7/8), positions 8/8 (model 8/8)",
      "html-mailgen/default-readme-action.html": "colours 12/13 (model 10/11), positions 8/10 (model 8/10)",
      "html-mailgen/default-readme-table.html": "colours 12/13 (model 12/13), positions 12/12 (model 12/12)",
      "html-mailgen/default-receipt-styled.html": "colours 11/12 (model 10/11), positions 10/11 (model 10/11)",
      "html-mailgen/default-receipt.html": "colours 11/12 (model 10/11), positions 10/11 (model 10/11)",
      "html-mailgen/default-reset.html": "colours 8/9 (model 7/8), positions 7/8 (model 7/8)",
      "html-mailgen/default-welcome.html": "colours 8/9 (model 7/8), positions 7/8 (model 7/8)",
      "html-mailgen/neopolitan-readme-action.html": "colours 12/13 (model 10/11), positions 10/10 (model 10/10)",
      "html-mailgen/neopolitan-readme-table.html": "colours 13/13 (model 13/13), positions 12/12 (model 12/12)",
      "html-mailgen/neopolitan-receipt-styled.html": "colours 11/11 (model 10/10), positions 10/10 (model 10/10)",
      "html-mailgen/neopolitan-receipt.html": "colours 11/11 (model 10/10), positions 10/10 (model 10/10)",
      "html-mailgen/neopolitan-reset.html": "colours 8/8 (model 7/7), positions 7/7 (model 7/7)",
      "html-mailgen/neopolitan-welcome.html": "colours 8/8 (model 7/7), positions 7/7 (model 7/7)",
      "html-mailgen/postmark-receipt.html": "colours 10/11 (model 10/11), positions 9/10 (model 10/11)",
      "html-mailgen/postmark-reset.html": "colours 7/8 (model 7/8), positions 6/7 (model 7/8)",
      "html-mailgen/postmark-welcome.html": "colours 7/8 (model 7/8), positions 6/7 (model 7/8)",
      "html-mailgen/salted-readme-action.html": "colours 10/12 (model 8/10), positions 8/8 (model 9/9)",
      "html-mailgen/salted-readme-table.html": "colours 12/12 (model 12/12), positions 10/10 (model 11/11)",
      "html-mailgen/salted-receipt-styled.html": "colours 11/11 (model 10/10), positions 9/9 (model 10/10)",
      "html-mailgen/salted-receipt.html": "colours 11/11 (model 10/10), positions 9/9 (model 10/10)",
      "html-mailgen/salted-reset.html": "colours 7/8 (model 6/7), positions 6/6 (model 7/7)",
      "html-mailgen/salted-welcome.html": "colours 7/8 (model 6/7), positions 6/6 (model 7/7)",
      "html-mailgun/action.html": "colours 6/6 (model 5/5), positions 5/5 (model 5/5)",
      "html-mailgun/alert.html": "colours 6/6 (model 5/5), positions 6/6 (model 6/6)",
      "html-mailgun/billing.html": "colours 9/10 (model 9/10), positions 9/9 (model 9/9)",
    }
  `);
});
