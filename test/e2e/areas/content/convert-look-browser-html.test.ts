/**
 * The colours and positions of the corpus's HTML emails but Foundation for Emails' templates (which
 * convert-look-browser-foundation.test.ts draws) as Chromium draws each source and its converted
 * LMX (test/support/convert-look.ts).
 */
import { expect } from 'vitest';
import { corpusDirectory } from '../../../support/convert-corpus.js';
import { counts, describeLooks, readableWords, uncountedLosses } from '../../../support/convert-look.js';

describeLooks('HTML', /^(?!foundation-emails|html-ecomplus|html-authjs).*\.html$/, corpusDirectory, (looks) => {
  expect(looks.filter((look) => look.unmatched > 0).map((look) => look.file)).toEqual([]);
  expect(counts(looks)).toMatchInlineSnapshot(`
    {
      "html-leemunroe/email-styled.html": "colours 10/10 (model 9/9), positions 6/7 (model 6/7)",
      "html-leemunroe/email.html": "colours 10/10 (model 9/9), positions 6/7 (model 6/7)",
      "html-mailgen/cerberus-readme-action.html": "colours 14/15 (model 12/13), positions 10/10 (model 10/10)",
      "html-mailgen/cerberus-readme-table.html": "colours 12/13 (model 12/13), positions 12/12 (model 12/12)",
      "html-mailgen/cerberus-receipt-styled.html": "colours 12/13 (model 11/12), positions 11/11 (model 11/11)",
      "html-mailgen/cerberus-receipt.html": "colours 12/13 (model 11/12), positions 11/11 (model 11/11)",
      "html-mailgen/cerberus-reset.html": "colours 9/10 (model 8/9), positions 8/8 (model 8/8)",
      "html-mailgen/cerberus-welcome.html": "colours 9/10 (model 8/9), positions 8/8 (model 8/8)",
      "html-mailgen/default-readme-action.html": "colours 14/15 (model 12/13), positions 8/10 (model 8/10)",
      "html-mailgen/default-readme-table.html": "colours 12/13 (model 12/13), positions 12/12 (model 12/12)",
      "html-mailgen/default-receipt-styled.html": "colours 12/13 (model 11/12), positions 10/11 (model 10/11)",
      "html-mailgen/default-receipt.html": "colours 12/13 (model 11/12), positions 10/11 (model 10/11)",
      "html-mailgen/default-reset.html": "colours 9/10 (model 8/9), positions 7/8 (model 7/8)",
      "html-mailgen/default-welcome.html": "colours 9/10 (model 8/9), positions 7/8 (model 7/8)",
      "html-mailgen/neopolitan-readme-action.html": "colours 14/15 (model 12/13), positions 10/10 (model 10/10)",
      "html-mailgen/neopolitan-readme-table.html": "colours 13/13 (model 13/13), positions 12/12 (model 12/12)",
      "html-mailgen/neopolitan-receipt-styled.html": "colours 12/12 (model 11/11), positions 10/10 (model 10/10)",
      "html-mailgen/neopolitan-receipt.html": "colours 12/12 (model 11/11), positions 10/10 (model 10/10)",
      "html-mailgen/neopolitan-reset.html": "colours 9/9 (model 8/8), positions 7/7 (model 7/7)",
      "html-mailgen/neopolitan-welcome.html": "colours 9/9 (model 8/8), positions 7/7 (model 7/7)",
      "html-mailgen/postmark-receipt.html": "colours 11/12 (model 11/12), positions 9/10 (model 10/11)",
      "html-mailgen/postmark-reset.html": "colours 8/9 (model 8/9), positions 6/7 (model 7/8)",
      "html-mailgen/postmark-welcome.html": "colours 8/9 (model 8/9), positions 6/7 (model 7/8)",
      "html-mailgen/salted-readme-action.html": "colours 12/14 (model 10/12), positions 8/8 (model 9/9)",
      "html-mailgen/salted-readme-table.html": "colours 12/12 (model 12/12), positions 10/10 (model 11/11)",
      "html-mailgen/salted-receipt-styled.html": "colours 12/12 (model 11/11), positions 9/9 (model 10/10)",
      "html-mailgen/salted-receipt.html": "colours 12/12 (model 11/11), positions 9/9 (model 10/10)",
      "html-mailgen/salted-reset.html": "colours 8/9 (model 7/8), positions 6/6 (model 7/7)",
      "html-mailgen/salted-welcome.html": "colours 8/9 (model 7/8), positions 6/6 (model 7/7)",
      "html-mailgun/action.html": "colours 7/7 (model 6/6), positions 5/5 (model 5/5)",
      "html-mailgun/alert.html": "colours 7/7 (model 6/6), positions 6/6 (model 6/6)",
      "html-mailgun/billing.html": "colours 9/10 (model 9/10), positions 9/9 (model 9/9)",
    }
  `);
  expect(readableWords(looks)).toMatchInlineSnapshot(`
    {
      "html-leemunroe/email-styled.html": "600 54 → 54, 375 54 → 54 (fidelity 72/72)",
      "html-leemunroe/email.html": "600 54 → 54, 375 54 → 54 (fidelity 72/72)",
      "html-mailgen/cerberus-readme-action.html": "600 72 → 72, 375 72 → 72 (fidelity 75/75)",
      "html-mailgen/cerberus-readme-table.html": "600 48 → 48, 375 48 → 48 (fidelity 48/48)",
      "html-mailgen/cerberus-receipt-styled.html": "600 70 → 70, 375 70 → 70 (fidelity 70/70)",
      "html-mailgen/cerberus-receipt.html": "600 70 → 70, 375 70 → 70 (fidelity 70/70)",
      "html-mailgen/cerberus-reset.html": "600 54 → 54, 375 54 → 54 (fidelity 54/54)",
      "html-mailgen/cerberus-welcome.html": "600 47 → 47, 375 47 → 47 (fidelity 50/50)",
      "html-mailgen/default-readme-action.html": "600 68 → 68, 375 68 → 68 (fidelity 75/75)",
      "html-mailgen/default-readme-table.html": "600 38 → 38, 375 38 → 38 (fidelity 48/48)",
      "html-mailgen/default-receipt-styled.html": "600 63 → 63, 375 63 → 63 (fidelity 70/70)",
      "html-mailgen/default-receipt.html": "600 63 → 63, 375 63 → 63 (fidelity 70/70)",
      "html-mailgen/default-reset.html": "600 50 → 50, 375 50 → 50 (fidelity 54/54)",
      "html-mailgen/default-welcome.html": "600 43 → 43, 375 43 → 43 (fidelity 50/50)",
      "html-mailgen/neopolitan-readme-action.html": "600 71 → 71, 375 71 → 71 (fidelity 75/75)",
      "html-mailgen/neopolitan-readme-table.html": "600 47 → 47, 375 47 → 47 (fidelity 48/48)",
      "html-mailgen/neopolitan-receipt-styled.html": "600 67 → 67, 375 67 → 67 (fidelity 70/70)",
      "html-mailgen/neopolitan-receipt.html": "600 67 → 67, 375 67 → 67 (fidelity 70/70)",
      "html-mailgen/neopolitan-reset.html": "600 51 → 51, 375 51 → 51 (fidelity 54/54)",
      "html-mailgen/neopolitan-welcome.html": "600 44 → 44, 375 44 → 44 (fidelity 50/50)",
      "html-mailgen/postmark-receipt.html": "600 59 → 59, 375 59 → 59 (fidelity 66/66)",
      "html-mailgen/postmark-reset.html": "600 46 → 46, 375 46 → 46 (fidelity 50/50)",
      "html-mailgen/postmark-welcome.html": "600 39 → 39, 375 39 → 39 (fidelity 46/46)",
      "html-mailgen/salted-readme-action.html": "600 65 → 66, 375 64 → 66 (fidelity 72/72)",
      "html-mailgen/salted-readme-table.html": "600 44 → 44, 375 43 → 44 (fidelity 45/45)",
      "html-mailgen/salted-receipt-styled.html": "600 66 → 66, 375 65 → 66 (fidelity 67/67)",
      "html-mailgen/salted-receipt.html": "600 66 → 66, 375 65 → 66 (fidelity 67/67)",
      "html-mailgen/salted-reset.html": "600 50 → 51, 375 49 → 51 (fidelity 51/51)",
      "html-mailgen/salted-welcome.html": "600 43 → 44, 375 42 → 44 (fidelity 47/47)",
      "html-mailgun/action.html": "600 37 → 37, 375 37 → 37 (fidelity 42/42)",
      "html-mailgun/alert.html": "600 37 → 37, 375 37 → 37 (fidelity 49/49)",
      "html-mailgun/billing.html": "600 36 → 39, 375 36 → 39 (fidelity 41/41)",
    }
  `);
  expect(uncountedLosses(looks)).toEqual([]);
});
