import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../../src/api/client.js';
import { MailingListNames } from '../../../../src/areas/lists/names.js';

const lists = [
  { id: 'clist000000000000000000001', name: 'Newsletter', description: null, isPublic: true },
  { id: 'clist000000000000000000002', name: 'newsletter', description: null, isPublic: true },
  { id: 'clist000000000000000000003', name: 'Beta', description: null, isPublic: false },
  { id: 'clist000000000000000000004', name: 'clist000000000000000000003', description: null, isPublic: false },
];

/** The resolver over a client that answers the lists, counting the reads. */
function resolver(): { names: MailingListNames; reads: () => number } {
  let reads = 0;
  const client = {
    call: async () => {
      reads += 1;
      return lists;
    },
  } as unknown as ApiClient;
  return { names: new MailingListNames(async () => client), reads: () => reads };
}

describe('MailingListNames', () => {
  it('takes an id first, then a name exactly, then a name but for case, reading the lists once', async () => {
    const { names, reads } = resolver();
    expect(await names.idOf('clist000000000000000000003', '--list')).toBe('clist000000000000000000003');
    expect(await names.idOf('Newsletter', '--list')).toBe('clist000000000000000000001');
    expect(await names.idOf('newsletter', '--list')).toBe('clist000000000000000000002');
    expect(await names.idOf('BETA', '--list')).toBe('clist000000000000000000003');
    expect(reads()).toBe(1);
  });

  it('refuses a name several lists have but for case, naming their ids', async () => {
    const { names } = resolver();
    await expect(names.idOf('NEWSLETTER', 'members.csv: line 2')).rejects.toMatchObject({
      message: 'members.csv: line 2: 2 mailing lists are named "NEWSLETTER"',
      hint: 'name it by its id: clist000000000000000000001, clist000000000000000000002',
      exitCode: 2,
    });
  });
});
