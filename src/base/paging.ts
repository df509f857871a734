/** The API's page sizes, kept apart so that declaring the paging options loads nothing else. */
export const PER_PAGE_MIN = 10;
export const PER_PAGE_MAX = 50;
