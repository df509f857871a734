/** `content check`'s summary counts every file its errors and warnings are in. */
import { describe, expect, it } from 'vitest';
import { contentTree } from '../../../support/content-tree.js';
import { run } from '../../../support/main.js';

const RESET = 'transactional/password-reset--cx1';
const WELCOME = 'campaigns/welcome--cm1';

describe("content check's summary", () => {
  it('counts a file with warnings only, beside one with errors', async () => {
    const root = contentTree({
      [`${RESET}/transactional.json`]: '{"name":"Password reset"}\n',
      // An error: a contact property in a transactional email.
      [`${RESET}/draft.lmx`]: '<Paragraph>Hi {contact.firstName}</Paragraph>\n',
      [`${WELCOME}/campaign.json`]: '{"name":"Welcome"}\n',
      // A warning: a component the tree does not have.
      [`${WELCOME}/email.lmx`]: '<Component componentId="cmp_gone" />\n',
    });
    const both = await run(['content', 'check', root]);
    expect(both.code).toBe(1);
    expect(both.stderr).toBe('Checked 2 files: 1 error, 1 warning in 2 files.\n');
  });

  it('counts the files with warnings without --strict too', async () => {
    const root = contentTree({
      [`${WELCOME}/campaign.json`]: '{"name":"Welcome"}\n',
      [`${WELCOME}/email.lmx`]: '<Component componentId="cmp_gone" />\n',
    });
    const lenient = await run(['content', 'check', root]);
    expect(lenient.code).toBe(0);
    expect(lenient.stderr).toBe('Checked 1 file: 0 errors, 1 warning in 1 file.\n');
  });
});
