// The app's own code, which the handlers call: here, what the tests read back.
export const handled: { eventName: string; email: string | undefined }[] = [];
export const logged: { error: unknown; webhookId: string | undefined }[] = [];

export async function markUndeliverable(email: string): Promise<void> {
  handled.push({ eventName: 'email.hardBounced', email });
}

export async function recordEvent(eventName: string, email: string | undefined): Promise<void> {
  handled.push({ eventName, email });
}

export function logError(error: unknown, webhookId: string | undefined): void {
  logged.push({ error, webhookId });
}
