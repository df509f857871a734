/** Valid answers of the documented shapes, for tests that need the API to succeed. */
export const metrics = { sends: 10, deliveries: 9, spamReports: 0, hardBounces: 1, softBounces: 0 };

export const draftRecord = {
  id: 'clt0000000000000000000001',
  name: 'Receipt',
  draftEmailMessageId: 'clm0000000000000000000001',
  draftEmailMessageContentRevisionId: 'clr0000000000000000000001',
  publishedEmailMessageId: null,
  transactionalGroupId: null,
  createdAt: '2025-01-02T03:04:05.000Z',
  updatedAt: '2025-01-02T03:04:05.000Z',
  dataVariables: [],
};

export function group(id: string, name = `Group ${id}`) {
  return { id, name, description: '', createdAt: '2025-01-02T03:04:05.000Z', updatedAt: '2025-01-02T03:04:05.000Z' };
}

export function page<T>(data: T[], nextCursor: string | null = null) {
  return {
    pagination: { totalResults: data.length, returnedResults: data.length, perPage: 20, totalPages: 1, nextCursor, nextPage: nextCursor },
    data,
  };
}
