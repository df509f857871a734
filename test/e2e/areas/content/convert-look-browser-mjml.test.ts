/**
 * The colours and positions of the corpus's MJML emails as Chromium draws each compiled source and
 * its converted LMX (test/support/convert-look.ts).
 */
import { expect } from 'vitest';
import { corpusDirectory } from '../../../support/convert-corpus.js';
import { counts, describeLooks } from '../../../support/convert-look.js';

describeLooks('MJML', /\.mjml$/, corpusDirectory, (looks) => {
  expect(looks.filter((look) => look.unmatched > 0).map((look) => look.file)).toEqual([]);
  expect(counts(looks)).toMatchInlineSnapshot(`
    {
      "mjml-covalent/welcome-letter.mjml": "colours 22/24 (model 22/25), positions 22/22 (model 23/23)",
      "mjml-covalent/workshop.mjml": "colours 21/24 (model 19/23), positions 24/26 (model 27/27), unlisted: position",
      "mjml-vendure/email-address-change.mjml": "colours 4/4 (model 3/3), positions 4/4 (model 4/4)",
      "mjml-vendure/email-verification.mjml": "colours 4/4 (model 3/3), positions 4/4 (model 4/4)",
      "mjml-vendure/order-confirmation.mjml": "colours 13/13 (model 18/18), positions 13/13 (model 18/18)",
      "mjml-vendure/password-reset.mjml": "colours 5/5 (model 4/4), positions 5/5 (model 5/5)",
      "mjml/accordion-readme.mjml": "colours 2/2 (model 4/4), positions 2/2 (model 4/4)",
      "mjml/body-readme.mjml": "colours 0/0 (model 0/0), positions 0/0 (model 0/0)",
      "mjml/button-readme.mjml": "colours 1/1 (model 0/0), positions 0/0 (model 1/1)",
      "mjml/carousel-readme.mjml": "colours 0/0 (model 0/0), positions 0/3 (model 3/3), unlisted: position",
      "mjml/column-readme.mjml": "colours 0/0 (model 0/0), positions 0/0 (model 0/0)",
      "mjml/divider-readme.mjml": "colours 0/0 (model 0/0), positions 0/0 (model 0/0)",
      "mjml/group-readme.mjml": "colours 4/4 (model 4/4), positions 6/6 (model 6/6)",
      "mjml/head-attributes-readme.mjml": "colours 1/1 (model 1/1), positions 1/1 (model 1/1)",
      "mjml/head-breakpoint-readme.mjml": "colours 1/1 (model 1/1), positions 1/1 (model 1/1)",
      "mjml/head-font-readme.mjml": "colours 1/1 (model 1/1), positions 1/1 (model 1/1)",
      "mjml/head-html-attributes-readme.mjml": "colours 1/1 (model 1/1), positions 1/1 (model 1/1)",
      "mjml/head-preview-readme.mjml": "colours 1/1 (model 1/1), positions 1/1 (model 1/1)",
      "mjml/head-style-readme.mjml": "colours 3/3 (model 3/3), positions 3/3 (model 3/3)",
      "mjml/head-title-readme.mjml": "colours 1/1 (model 1/1), positions 1/1 (model 1/1)",
      "mjml/hero-readme.mjml": "colours 1/2 (model 0/1), positions 2/2 (model 2/2)",
      "mjml/image-readme.mjml": "colours 0/0 (model 0/0), positions 1/1 (model 1/1)",
      "mjml/navbar-readme.mjml": "colours 0/0 (model 5/5), positions 0/0 (model 1/1)",
      "mjml/raw-readme-2.mjml": "colours 0/0 (model 0/0), positions 0/0 (model 0/0)",
      "mjml/raw-readme-3.mjml": "colours 0/0 (model 0/0), positions 0/0 (model 0/0)",
      "mjml/raw-readme.mjml": "colours 0/0 (model 0/0), positions 0/0 (model 0/0)",
      "mjml/section-readme.mjml": "colours 0/0 (model 0/0), positions 0/0 (model 0/0)",
      "mjml/social-readme.mjml": "colours 1/1 (model 5/5), positions 0/0 (model 1/1)",
      "mjml/spacer-readme.mjml": "colours 2/2 (model 2/2), positions 2/2 (model 2/2)",
      "mjml/table-readme.mjml": "colours 3/3 (model 3/3), positions 3/3 (model 3/3)",
      "mjml/text-readme.mjml": "colours 3/3 (model 3/3), positions 3/3 (model 3/3)",
      "mjml/wrapper-readme.mjml": "colours 2/2 (model 2/2), positions 3/3 (model 3/3)",
    }
  `);
});
