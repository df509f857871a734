/**
 * The example app's one use of Loops: sending the welcome email, with back-off when the API says
 * it is sending too fast (429, and how long to wait in Retry-After).
 */
export interface LoopsConfig {
  url: string;
  apiKey: string;
}

export class LoopsRateLimited extends Error {}

export async function sendWelcome(loops: LoopsConfig, email: string, firstName?: string, attempts = 3): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    const response = await fetch(`${loops.url}/api/v1/transactional`, {
      method: 'POST',
      headers: { authorization: `Bearer ${loops.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        transactionalId: 'tx_welcome',
        email,
        addToAudience: true,
        dataVariables: { loginUrl: 'https://example.com/login', ...(firstName === undefined ? {} : { firstName }) },
      }),
    });
    if (response.status !== 429) {
      if (!response.ok) throw new Error(`Loops refused the welcome email: ${response.status} ${await response.text()}`);
      return;
    }
    if (attempt === attempts) throw new LoopsRateLimited(`still rate limited after ${attempts} attempts`);
    const seconds = Number(response.headers.get('retry-after') ?? '1');
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  }
}
