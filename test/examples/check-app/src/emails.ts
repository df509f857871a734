// An app that sends with the official SDK (loops on npm), against the sandbox's demo account.
// `loopsctl --sandbox check --code test/examples/check-app` finds the mistakes the comments name.
import { LoopsClient } from 'loops';

const loops = new LoopsClient(process.env.LOOPS_API_KEY ?? '');

const PASSWORD_RESET = 'c1h3243uwicgpgajrgexlzdl5';

export async function sendPasswordReset(email: string, firstName: string, resetUrl: string): Promise<void> {
  await loops.sendTransactionalEmail({
    transactionalId: PASSWORD_RESET,
    email,
    dataVariables: { firstName, resetUrl, expiresInMinutes: 30 },
  });
}

export async function sendWelcome(email: string, firstName: string): Promise<void> {
  // Mistake: "Welcome" also shows loginUrl.
  await loops.sendTransactionalEmail({ transactionalId: 'cc1hv1te56efs1g1ifrp90u0j', email, dataVariables: { firstName } });
}

export async function sendPaymentFailed(email: string): Promise<void> {
  // Mistake: "Payment failed" is not published.
  await loops.sendTransactionalEmail({ transactionalId: 'clnbezeie7a6e97br15gg5obs', email });
}

export async function startTrial(email: string, plan: 'pro' | 'business'): Promise<void> {
  await loops.sendEvent({ email, eventName: 'trial_started', eventProperties: { plan } });
  // Mistake: a misspelt event, which no workflow waits for.
  await loops.sendEvent({ email, eventName: 'trial_startd' });
}

export async function signUp(email: string): Promise<void> {
  await loops.createContact({
    email,
    // Mistake: the account has no "company" property.
    properties: { firstName: 'Ada', plan: 'trial', company: 'Acme' },
    // Mistake: the second list is not the account's.
    mailingLists: { co0gnzwtbvun8n3amky3gzsp4: true, cnolistwiththisid000000000: true },
  });
}

export async function sendReceipt(email: string, order: { number: string; total: string; items: string; invoiceUrl: string }): Promise<void> {
  // A raw request. Mistake: an id the account does not have.
  await fetch('https://app.loops.so/api/v1/transactional', {
    method: 'POST',
    headers: { Authorization: `Bearer ${process.env.LOOPS_API_KEY}` },
    body: JSON.stringify({
      transactionalId: 'cnotarealtransactional0000',
      email,
      dataVariables: { orderNumber: order.number, total: order.total, items: order.items, invoiceUrl: order.invoiceUrl },
    }),
  });
}
