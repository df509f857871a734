/** Which deliveries a query of the store selects, and the SQL that selects them. */

/** Which deliveries: all of them unless narrowed. */
export interface DeliveryFilter {
  /** The recipient (contactIdentity.email), in any case. */
  to?: string;
  /** One event name or several. */
  event?: string | readonly string[];
  /** The email's id (`email.id` in the payload). */
  emailId?: string;
  /** Events at or after this time (the event's eventTime, else when it arrived). */
  since?: Date;
  /** Events before this time. */
  until?: Date;
  /** Only deliveries queued for this forwarding target; each found carries its `forward`. */
  target?: string;
  limit?: number;
  /** Newest first (the default), or oldest first (for a replay). */
  order?: 'newest' | 'oldest';
}

/** The WHERE clause (over deliveries as `d`) and its parameters that select what a filter names. */
export function conditions(filter: DeliveryFilter): { where: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  if (filter.to !== undefined) {
    clauses.push('d.recipient = ?');
    params.push(filter.to.toLowerCase());
  }
  if (filter.event !== undefined) {
    const names = typeof filter.event === 'string' ? [filter.event] : [...filter.event];
    clauses.push(names.length === 0 ? '1 = 0' : `d.event_name IN (${names.map(() => '?').join(', ')})`);
    params.push(...names);
  }
  if (filter.emailId !== undefined) {
    clauses.push('d.email_id = ?');
    params.push(filter.emailId);
  }
  if (filter.since !== undefined) {
    clauses.push('d.event_at >= ?');
    params.push(filter.since.getTime());
  }
  if (filter.until !== undefined) {
    clauses.push('d.event_at < ?');
    params.push(filter.until.getTime());
  }
  return { where: clauses.length === 0 ? '' : ` WHERE ${clauses.join(' AND ')}`, params };
}
