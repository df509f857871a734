/** The keys the sandbox accepts, each standing for a team with some features turned off. */
export interface KeyFeatures {
  content: boolean;
  workflows: boolean;
  sendingDomain: boolean;
  /** The metrics operations (campaigns, workflow emails, transactional emails). */
  metrics: boolean;
  /** Every request is over the rate limit (429), for testing a client's back-off. */
  alwaysRateLimited?: boolean;
}

export const SANDBOX_KEYS: Record<string, KeyFeatures> = {
  'sandbox-key': { content: true, workflows: true, sendingDomain: true, metrics: true },
  'sandbox-no-content': { content: false, workflows: true, sendingDomain: true, metrics: true },
  'sandbox-no-workflows': { content: true, workflows: false, sendingDomain: true, metrics: true },
  'sandbox-no-domain': { content: true, workflows: true, sendingDomain: false, metrics: true },
  'sandbox-no-metrics': { content: true, workflows: true, sendingDomain: true, metrics: false },
  'sandbox-rate-limited': { content: true, workflows: true, sendingDomain: true, metrics: true, alwaysRateLimited: true },
};
export const SANDBOX_KEY = 'sandbox-key';
