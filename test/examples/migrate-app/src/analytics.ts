// What the shop tells Customer.io about orders, which starts its follow-up emails.
import { TrackClient } from 'customerio-node';

const cio = new TrackClient(process.env.CIO_SITE_ID ?? '', process.env.CIO_API_KEY ?? '');

export async function orderCompleted(customerId: string, total: number, currency: string): Promise<void> {
  await cio.track(customerId, { name: 'order_completed', data: { total, currency } });
}
