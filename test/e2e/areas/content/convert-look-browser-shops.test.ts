/**
 * The colours and positions of the corpus's emails of shops and sign-ins, E-Com Plus's
 * transactional emails and Auth.js's sign-in link, as Chromium draws each source and its converted
 * LMX (test/support/convert-look.ts): SendGrid's designer's modules and a button of one table cell.
 */
import { expect } from 'vitest';
import { corpusDirectory } from '../../../support/convert-corpus.js';
import { counts, describeLooks } from '../../../support/convert-look.js';

describeLooks('shops’ and sign-ins’ HTML', /^html-(ecomplus|authjs)\/.*\.html$/, corpusDirectory, (looks) => {
  expect(looks.filter((look) => look.unmatched > 0).map((look) => look.file)).toEqual([]);
  expect(counts(looks)).toMatchInlineSnapshot(`
    {
      "html-authjs/sign-in.html": "colours 3/3 (model 2/2), positions 3/3 (model 3/3)",
      "html-ecomplus/abandoned-cart.html": "colours 19/19 (model 18/18), positions 17/18 (model 19/19)",
      "html-ecomplus/delivered.html": "colours 28/28 (model 27/27), positions 25/26 (model 28/28)",
      "html-ecomplus/new-order-pt-br.html": "colours 30/30 (model 29/29), positions 26/27 (model 29/29)",
      "html-ecomplus/new-order.html": "colours 30/30 (model 29/29), positions 26/27 (model 29/29)",
      "html-ecomplus/paid.html": "colours 29/29 (model 28/28), positions 25/26 (model 28/28)",
      "html-ecomplus/promo.html": "colours 10/10 (model 9/9), positions 10/11 (model 11/11)",
      "html-ecomplus/refunded.html": "colours 8/8 (model 7/7), positions 8/8 (model 8/8)",
      "html-ecomplus/shipped.html": "colours 32/32 (model 31/31), positions 27/28 (model 30/30)",
      "html-ecomplus/welcome.html": "colours 6/6 (model 5/5), positions 7/7 (model 7/7)",
    }
  `);
});
