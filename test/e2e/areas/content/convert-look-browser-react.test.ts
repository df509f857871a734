/**
 * The colours and positions of the corpus's React Email templates as Chromium draws React Email's
 * rendering of each and its converted LMX (test/support/convert-look.ts).
 */
import { expect } from 'vitest';
import { corpusDirectory } from '../../../support/convert-corpus.js';
import { counts, describeLooks, readableWords, uncountedLosses } from '../../../support/convert-look.js';

describeLooks('React Email', /\.tsx$/, corpusDirectory, (looks) => {
  expect(looks.filter((look) => look.unmatched > 0).map((look) => look.file)).toEqual([]);
  expect(counts(looks)).toMatchInlineSnapshot(`
    {
      "react-email-1.2/notion-magic-link.tsx": "colours 7/8 (model 8/9), positions 7/7 (model 8/8)",
      "react-email-1.2/plaid-verify-identity.tsx": "colours 7/7 (model 8/8), positions 6/6 (model 7/7)",
      "react-email-1.2/stripe-welcome.tsx": "colours 15/15 (model 15/15), positions 9/10 (model 9/10)",
      "react-email-1.2/vercel-invite-user.tsx": "colours 11/11 (model 12/12), positions 10/10 (model 10/10)",
      "react-email-proofkit/auth-code.tsx": "colours 3/3 (model 5/5), positions 3/3 (model 5/5)",
      "react-email-proofkit/generic.tsx": "colours 1/1 (model 5/5), positions 1/1 (model 5/5)",
      "react-email/notion-magic-link.tsx": "colours 7/8 (model 8/9), positions 7/7 (model 8/8)",
      "react-email/plaid-verify-identity.tsx": "colours 7/7 (model 8/8), positions 6/6 (model 7/7)",
      "react-email/stripe-welcome.tsx": "colours 15/15 (model 15/15), positions 9/10 (model 9/10)",
      "react-email/vercel-invite-user.tsx": "colours 11/11 (model 12/12), positions 10/10 (model 10/10)",
    }
  `);
  expect(readableWords(looks)).toMatchInlineSnapshot(`
    {
      "react-email-1.2/notion-magic-link.tsx": "600 32 → 32, 375 32 → 32 (fidelity 57/57)",
      "react-email-1.2/plaid-verify-identity.tsx": "600 30 → 30, 375 30 → 30 (fidelity 30/30)",
      "react-email-1.2/stripe-welcome.tsx": "600 153 → 153, 375 153 → 153 (fidelity 163/163)",
      "react-email-1.2/vercel-invite-user.tsx": "600 68 → 68, 375 68 → 68 (fidelity 68/68)",
      "react-email-proofkit/auth-code.tsx": "600 23 → 23, 375 23 → 23 (fidelity 23/29)",
      "react-email-proofkit/generic.tsx": "600 0 → 0, 375 0 → 0 (fidelity 0/0)",
      "react-email/notion-magic-link.tsx": "600 32 → 32, 375 32 → 32 (fidelity 57/57)",
      "react-email/plaid-verify-identity.tsx": "600 30 → 30, 375 30 → 30 (fidelity 30/30)",
      "react-email/stripe-welcome.tsx": "600 153 → 153, 375 153 → 153 (fidelity 163/163)",
      "react-email/vercel-invite-user.tsx": "600 68 → 68, 375 68 → 68 (fidelity 68/68)",
    }
  `);
  expect(uncountedLosses(looks)).toEqual([]);
});
