/**
 * The colours and positions of the corpus's MJML emails as Chromium draws each compiled source and
 * its converted LMX (test/support/convert-look.ts).
 */
import { expect } from 'vitest';
import { corpusDirectory } from '../../../support/convert-corpus.js';
import { counts, describeLooks, readableWords, uncountedLosses } from '../../../support/convert-look.js';

describeLooks('MJML', /\.mjml$/, corpusDirectory, (looks) => {
  expect(looks.filter((look) => look.unmatched > 0).map((look) => look.file)).toEqual([]);
  expect(counts(looks)).toMatchInlineSnapshot(`
    {
      "mjml-covalent/welcome-letter.mjml": "colours 24/26 (model 24/27), positions 22/22 (model 23/23)",
      "mjml-covalent/workshop.mjml": "colours 28/31 (model 26/30), positions 26/26 (model 27/27)",
      "mjml-vendure/email-address-change.mjml": "colours 5/5 (model 4/4), positions 4/4 (model 4/4)",
      "mjml-vendure/email-verification.mjml": "colours 5/5 (model 4/4), positions 4/4 (model 4/4)",
      "mjml-vendure/order-confirmation.mjml": "colours 13/13 (model 18/18), positions 13/13 (model 18/18)",
      "mjml-vendure/password-reset.mjml": "colours 6/6 (model 5/5), positions 5/5 (model 5/5)",
      "mjml/accordion-readme.mjml": "colours 2/2 (model 4/4), positions 2/2 (model 4/4)",
      "mjml/body-readme.mjml": "colours 0/0 (model 0/0), positions 0/0 (model 0/0)",
      "mjml/button-readme.mjml": "colours 1/1 (model 0/0), positions 0/0 (model 1/1)",
      "mjml/carousel-readme.mjml": "colours 3/3 (model 3/3), positions 0/3 (model 0/3)",
      "mjml/column-readme.mjml": "colours 0/0 (model 0/0), positions 0/0 (model 0/0)",
      "mjml/divider-readme.mjml": "colours 0/0 (model 0/0), positions 0/0 (model 0/0)",
      "mjml/group-readme.mjml": "colours 6/6 (model 6/6), positions 6/6 (model 6/6)",
      "mjml/head-attributes-readme.mjml": "colours 1/1 (model 1/1), positions 1/1 (model 1/1)",
      "mjml/head-breakpoint-readme.mjml": "colours 1/1 (model 1/1), positions 1/1 (model 1/1)",
      "mjml/head-font-readme.mjml": "colours 1/1 (model 1/1), positions 1/1 (model 1/1)",
      "mjml/head-html-attributes-readme.mjml": "colours 1/1 (model 1/1), positions 1/1 (model 1/1)",
      "mjml/head-preview-readme.mjml": "colours 1/1 (model 1/1), positions 1/1 (model 1/1)",
      "mjml/head-style-readme.mjml": "colours 3/3 (model 3/3), positions 3/3 (model 3/3)",
      "mjml/head-title-readme.mjml": "colours 1/1 (model 1/1), positions 1/1 (model 1/1)",
      "mjml/hero-readme.mjml": "colours 1/3 (model 0/2), positions 2/2 (model 2/2)",
      "mjml/image-readme.mjml": "colours 1/1 (model 1/1), positions 1/1 (model 1/1)",
      "mjml/navbar-readme.mjml": "colours 1/1 (model 5/5), positions 0/0 (model 1/1)",
      "mjml/raw-readme-2.mjml": "colours 0/0 (model 0/0), positions 0/0 (model 0/0)",
      "mjml/raw-readme-3.mjml": "colours 0/0 (model 0/0), positions 0/0 (model 0/0)",
      "mjml/raw-readme.mjml": "colours 0/0 (model 0/0), positions 0/0 (model 0/0)",
      "mjml/section-readme.mjml": "colours 0/0 (model 0/0), positions 0/0 (model 0/0)",
      "mjml/social-readme.mjml": "colours 1/1 (model 5/5), positions 0/0 (model 1/1)",
      "mjml/spacer-readme.mjml": "colours 2/2 (model 2/2), positions 2/2 (model 2/2)",
      "mjml/table-readme.mjml": "colours 3/3 (model 3/3), positions 3/3 (model 3/3)",
      "mjml/text-readme.mjml": "colours 3/3 (model 3/3), positions 3/3 (model 3/3)",
      "mjml/wrapper-readme.mjml": "colours 3/3 (model 3/3), positions 3/3 (model 3/3)",
    }
  `);
  expect(readableWords(looks)).toMatchInlineSnapshot(`
    {
      "mjml-covalent/welcome-letter.mjml": "600 154 → 154, 375 154 → 154 (fidelity 155/155)",
      "mjml-covalent/workshop.mjml": "600 180 → 180, 375 180 → 180 (fidelity 180/180)",
      "mjml-vendure/email-address-change.mjml": "600 31 → 31, 375 31 → 31 (fidelity 31/31)",
      "mjml-vendure/email-verification.mjml": "600 26 → 26, 375 26 → 26 (fidelity 26/26)",
      "mjml-vendure/order-confirmation.mjml": "600 25 → 25, 375 25 → 25 (fidelity 25/25)",
      "mjml-vendure/password-reset.mjml": "600 35 → 35, 375 35 → 35 (fidelity 35/35)",
      "mjml/accordion-readme.mjml": "600 7 → 75, 375 7 → 75 (fidelity 75/75)",
      "mjml/body-readme.mjml": "600 0 → 0, 375 0 → 0 (fidelity 0/0)",
      "mjml/button-readme.mjml": "600 4 → 4, 375 4 → 4 (fidelity 4/4)",
      "mjml/carousel-readme.mjml": "600 0 → 0, 375 0 → 0 (fidelity 0/0)",
      "mjml/column-readme.mjml": "600 0 → 0, 375 0 → 0 (fidelity 0/0)",
      "mjml/divider-readme.mjml": "600 0 → 0, 375 0 → 0 (fidelity 0/0)",
      "mjml/group-readme.mjml": "600 30 → 30, 375 30 → 30 (fidelity 30/30)",
      "mjml/head-attributes-readme.mjml": "600 2 → 2, 375 2 → 2 (fidelity 2/2)",
      "mjml/head-breakpoint-readme.mjml": "600 2 → 2, 375 2 → 2 (fidelity 2/2)",
      "mjml/head-font-readme.mjml": "600 2 → 2, 375 2 → 2 (fidelity 2/2)",
      "mjml/head-html-attributes-readme.mjml": "600 2 → 2, 375 2 → 2 (fidelity 2/2)",
      "mjml/head-preview-readme.mjml": "600 2 → 2, 375 2 → 2 (fidelity 2/2)",
      "mjml/head-style-readme.mjml": "600 14 → 14, 375 14 → 14 (fidelity 14/14)",
      "mjml/head-title-readme.mjml": "600 2 → 2, 375 2 → 2 (fidelity 2/2)",
      "mjml/hero-readme.mjml": "600 7 → 7, 375 7 → 7 (fidelity 7/7)",
      "mjml/image-readme.mjml": "600 0 → 0, 375 0 → 0 (fidelity 0/0)",
      "mjml/navbar-readme.mjml": "600 7 → 7, 375 0 → 7 (fidelity 7/7)",
      "mjml/raw-readme-2.mjml": "600 0 → 0, 375 0 → 0 (fidelity 0/0)",
      "mjml/raw-readme-3.mjml": "600 10 → 0, 375 10 → 0 (fidelity 0/10)",
      "mjml/raw-readme.mjml": "600 0 → 0, 375 0 → 0 (fidelity 0/0)",
      "mjml/section-readme.mjml": "600 0 → 0, 375 0 → 0 (fidelity 0/0)",
      "mjml/social-readme.mjml": "600 4 → 4, 375 4 → 4 (fidelity 4/4)",
      "mjml/spacer-readme.mjml": "600 10 → 10, 375 10 → 10 (fidelity 10/10)",
      "mjml/table-readme.mjml": "600 13 → 13, 375 13 → 13 (fidelity 13/13)",
      "mjml/text-readme.mjml": "600 4 → 4, 375 4 → 4 (fidelity 4/4)",
      "mjml/wrapper-readme.mjml": "600 8 → 8, 375 8 → 8 (fidelity 8/8)",
    }
  `);
  expect(uncountedLosses(looks)).toEqual([]);
});
