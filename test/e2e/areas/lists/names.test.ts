/**
 * A mailing list is named by its id or its name wherever a command takes one, through one resolver
 * that reads the account's lists once a run; a name the account does not have stops the command
 * before anything is sent, with the names it may have meant.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectDescribed, sandboxEachTest } from '../../../support/recording.js';
import { tempDir } from '../../../support/temp.js';

const PRODUCT_UPDATES = 'co0gnzwtbvun8n3amky3gzsp4';
const BETA_TESTERS = 'ccr5wuhgixvhysmch2s25o20h';
const EVENT_INVITATIONS = 'crfnfn2qd4dlstscmr83c7nro';
const WIN_BACK = 'cw509z9tjxv56rte3vt30437u';
const NOVEMBER_NEWSLETTER = 'cb9tvk4yur8c4puvh4crvzir7';
const sandbox = sandboxEachTest();

describe('a mailing list by its id or its name', () => {
  it('contacts create and update take a list by its name, in any case, or its id, reading the lists once a run', async () => {
    const { loopsctl, requests } = await sandbox();
    const created = await loopsctl([
      'contacts',
      'create',
      '--email',
      'newcomer@example.com',
      '--list',
      'Beta testers=true',
      '--list',
      `${PRODUCT_UPDATES}=true`,
    ]);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    expect(requests.find((request) => request.path === '/v1/contacts/create')!.body).toEqual({
      email: 'newcomer@example.com',
      mailingLists: { [BETA_TESTERS]: true, [PRODUCT_UPDATES]: true },
    });
    const updated = await loopsctl(['contacts', 'update', '--email', 'newcomer@example.com', '--list', 'event INVITATIONS=true']);
    expect(updated.code).toBe(0);
    expect(requests.at(-1)!.body).toEqual({ email: 'newcomer@example.com', mailingLists: { [EVENT_INVITATIONS]: true } });
    expect(requests.filter((request) => request.path === '/v1/lists')).toHaveLength(2);
    const found = await loopsctl(['contacts', 'find', '--email', 'newcomer@example.com', '--json']);
    expect(found.json()[0].mailingLists).toEqual({ [BETA_TESTERS]: true, [PRODUCT_UPDATES]: true, [EVENT_INVITATIONS]: true });
  });

  it('refuses a list the account does not have, by name or by id, with the names it may have meant, and sends nothing', async () => {
    const { loopsctl, requests } = await sandbox();
    const typo = await loopsctl(['contacts', 'create', '--email', 'newcomer@example.com', '--list', 'Beta tester=true']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe(
      'Error: --list \'Beta tester=true\': the account has no mailing list "Beta tester"\n' +
        'Hint: did you mean "Beta testers"? See the lists with `loopsctl lists list`\n',
    );
    const unknownId = await loopsctl(['events', 'send', 'signed_up', '--email', 'newcomer@example.com', '--list', 'cnosuchlist00000000000000=true']);
    expect(unknownId.code).toBe(2);
    expect(unknownId.stderr).toContain('the account has no mailing list "cnosuchlist00000000000000"');
    expect(unknownId.stderr).toContain('Hint: its lists: "Product updates", "Beta testers", "Event invitations"');
    const malformed = await loopsctl(['contacts', 'update', '--email', 'newcomer@example.com', '--list', 'Beta testers']);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('expected <list>=true or <list>=false, the list by its id or its name');
    expect(requests.filter((request) => request.method !== 'GET')).toEqual([]);
  });

  it('events send, workflow create and set-list, and campaigns take a list by its name', async () => {
    const { loopsctl, requests } = await sandbox();
    const sent = await loopsctl(['events', 'send', 'signed_up', '--email', 'newcomer@example.com', '--list', 'Event invitations=true']);
    expect(sent.code).toBe(0);
    expect(requests.find((request) => request.path === '/v1/events/send')!.body.mailingLists).toEqual({ [EVENT_INVITATIONS]: true });
    const workflow = await loopsctl(['workflow', 'create', '--name', 'Re-engagement', '--list', 'Product updates', '--json']);
    expect(workflow.code).toBe(0);
    expect(requests.find((request) => request.method === 'POST' && request.path === '/v1/workflows')!.body.mailingListId).toBe(PRODUCT_UPDATES);
    const setList = await loopsctl(['workflow', 'set-list', WIN_BACK, 'Beta testers']);
    expect(setList.code).toBe(0);
    expect(requests.find((request) => request.path === `/v1/workflows/${WIN_BACK}/mailing-list`)!.body.mailingListId).toBe(BETA_TESTERS);
    const unknown = await loopsctl(['workflow', 'set-list', WIN_BACK, 'Beta']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Error: the mailing list: the account has no mailing list "Beta"\nHint: did you mean "Beta testers"?');
    const campaign = await loopsctl(['campaigns', 'update', NOVEMBER_NEWSLETTER, '--list', 'event invitations', '--json']);
    expect(campaign.code).toBe(0);
    expect(requests.filter((request) => request.method === 'POST').at(-1)!.body).toEqual({ mailingListId: EVENT_INVITATIONS });
    const cleared = await loopsctl(['campaigns', 'update', NOVEMBER_NEWSLETTER, '--list', 'none', '--json']);
    expect(cleared.code).toBe(0);
    expect(requests.filter((request) => request.method === 'POST').at(-1)!.body).toEqual({ mailingListId: null });
    expectDescribed(requests);
  });

  it('contacts import --lists-column reads names and ids through the same resolver, and stops on an unknown one before anything is sent', async () => {
    const { loopsctl, requests } = await sandbox();
    const dir = tempDir('list-names');
    const good = join(dir, 'good.csv');
    writeFileSync(good, `email,Lists\nlin@example.com,beta testers;${PRODUCT_UPDATES}\n`);
    const imported = await loopsctl(['contacts', 'import', good, '--lists-column', 'Lists', '--journal', join(dir, 'good.journal.jsonl')]);
    expect(imported.code).toBe(0);
    expect(requests.find((request) => request.path === '/v1/contacts/create')!.body.mailingLists).toEqual({ [BETA_TESTERS]: true, [PRODUCT_UPDATES]: true });
    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, 'email,Lists\nmo@example.com,Product updates\nno@example.com,Produkt updates\n');
    const refused = await loopsctl(['contacts', 'import', bad, '--lists-column', 'Lists', '--journal', join(dir, 'bad.journal.jsonl')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${bad}: line 3: the account has no mailing list "Produkt updates"\nHint: did you mean "Product updates"?`);
    expect(requests.filter((request) => request.path === '/v1/contacts/create')).toHaveLength(1);
  });
});
