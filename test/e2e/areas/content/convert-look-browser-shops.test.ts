/**
 * The colours and positions of the corpus's emails of shops and sign-ins, E-Com Plus's
 * transactional emails and Auth.js's sign-in link, as Chromium draws each source and its converted
 * LMX (test/support/convert-look.ts): SendGrid's designer's modules and a button of one table cell.
 */
import { expect } from 'vitest';
import { corpusDirectory } from '../../../support/convert-corpus.js';
import { counts, describeLooks, readableWords, uncountedLosses } from '../../../support/convert-look.js';

describeLooks('shops’ and sign-ins’ HTML', /^html-(ecomplus|authjs)\/.*\.html$/, corpusDirectory, (looks) => {
  expect(looks.filter((look) => look.unmatched > 0).map((look) => look.file)).toEqual([]);
  expect(counts(looks)).toMatchInlineSnapshot(`
    {
      "html-authjs/sign-in.html": "colours 4/4 (model 3/3), positions 3/3 (model 3/3)",
      "html-ecomplus/abandoned-cart.html": "colours 22/22 (model 21/21), positions 17/18 (model 19/19)",
      "html-ecomplus/delivered.html": "colours 31/31 (model 30/30), positions 25/26 (model 28/28)",
      "html-ecomplus/new-order-pt-br.html": "colours 33/33 (model 32/32), positions 26/27 (model 29/29)",
      "html-ecomplus/new-order.html": "colours 33/33 (model 32/32), positions 26/27 (model 29/29)",
      "html-ecomplus/paid.html": "colours 32/32 (model 31/31), positions 25/26 (model 28/28)",
      "html-ecomplus/promo.html": "colours 13/13 (model 12/12), positions 10/11 (model 11/11)",
      "html-ecomplus/refunded.html": "colours 10/10 (model 9/9), positions 8/8 (model 8/8)",
      "html-ecomplus/shipped.html": "colours 35/35 (model 34/34), positions 27/28 (model 30/30)",
      "html-ecomplus/welcome.html": "colours 8/8 (model 7/7), positions 7/7 (model 7/7)",
    }
  `);
  expect(readableWords(looks)).toMatchInlineSnapshot(`
    {
      "html-authjs/sign-in.html": "600 20 → 20, 375 20 → 20 (fidelity 20/20)",
      "html-ecomplus/abandoned-cart.html": "600 82 → 82, 375 82 → 82 (fidelity 82/82)",
      "html-ecomplus/delivered.html": "600 120 → 120, 375 118 → 120 (fidelity 120/120)",
      "html-ecomplus/new-order-pt-br.html": "600 128 → 128, 375 126 → 128 (fidelity 128/128)",
      "html-ecomplus/new-order.html": "600 119 → 119, 375 117 → 119 (fidelity 119/119)",
      "html-ecomplus/paid.html": "600 111 → 111, 375 109 → 111 (fidelity 111/111)",
      "html-ecomplus/promo.html": "600 34 → 34, 375 34 → 34 (fidelity 34/34)",
      "html-ecomplus/refunded.html": "600 37 → 37, 375 37 → 37 (fidelity 37/37)",
      "html-ecomplus/shipped.html": "600 142 → 142, 375 140 → 142 (fidelity 142/142)",
      "html-ecomplus/welcome.html": "600 29 → 29, 375 29 → 29 (fidelity 29/29)",
    }
  `);
  expect(uncountedLosses(looks)).toEqual([]);
});
