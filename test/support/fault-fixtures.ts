/** Answers of the documented shapes, for fault tests whose API eventually succeeds. */
export const metrics = { sends: 10, deliveries: 9, spamReports: 0, hardBounces: 1, softBounces: 0 };

export function group(index: number, name = `Group ${index}`) {
  return { id: `grp_${index}`, name, description: `About ${name}`, createdAt: '2025-06-29T07:47:39.370Z', updatedAt: '2025-06-30T12:00:00.000Z' };
}

export const draftRecord = {
  id: 'tx_welcome',
  name: 'Welcome',
  draftEmailMessageId: 'em_draft_1',
  draftEmailMessageContentRevisionId: 'rev_abc123',
  publishedEmailMessageId: 'em_pub_1',
  transactionalGroupId: 'grp_1',
  createdAt: '2025-06-29T07:47:39.370Z',
  updatedAt: '2025-06-29T07:47:39.370Z',
  dataVariables: ['confirmationUrl'],
};

export function envelope<T>(data: T[], nextCursor: string | null = null, perPage = 20, totalResults = data.length) {
  return {
    pagination: { totalResults, returnedResults: data.length, perPage, totalPages: Math.max(1, Math.ceil(totalResults / perPage)), nextCursor, nextPage: nextCursor && `https://example.invalid/?cursor=${nextCursor}` },
    data,
  };
}
