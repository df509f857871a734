/** The qa family's network rules (with --links or --only qa): what a link or an image answers. */
import type { Severity } from '../records.js';

export const LINK_RULES = {
  'link-broken': { severity: 'error', summary: 'a link that answers 4xx or 5xx' },
  'link-redirect-loop': { severity: 'error', summary: 'a link whose redirects come back to an address they passed' },
  'link-too-many-redirects': { severity: 'error', summary: 'a link redirected more than 5 times' },
  'link-tls': { severity: 'error', summary: "a link whose host's TLS certificate is not trusted (self-signed, expired, another name)" },
  'link-timeout': { severity: 'warning', summary: 'a link that gives no answer within the time limit (--timeout)' },
  'link-unreachable': { severity: 'error', summary: 'a link whose host does not resolve or refuses the connection' },
  'link-downgrade': { severity: 'warning', summary: 'an https link that lands on an http page' },
  'link-host-mismatch': { severity: 'warning', summary: 'a link whose text shows one domain and that lands on another (a phishing pattern filters score)' },
  'link-unsafe-redirect': { severity: 'error', summary: 'a public link redirected to file:, javascript: or a private address (not followed)' },
  'link-private': { severity: 'warning', summary: 'a link or image to a loopback or private address, which recipients cannot reach' },
  'links-skipped': { severity: 'info', summary: 'links and images whose address a variable builds, not fetched' },
  'image-broken': { severity: 'error', summary: 'an image that does not load (4xx, 5xx, no answer)' },
  'image-not-image': { severity: 'error', summary: 'an image address that answers something else (an HTML page), or bytes its content-type does not say' },
  'image-too-large': { severity: 'warning', summary: 'an image over 1 MB' },
  'email-images-too-large': { severity: 'warning', summary: "an email's images over 5 MB together" },
  'image-width': { severity: 'warning', summary: 'an image narrower in pixels than the width the LMX draws it at (it shows blurred)' },
  spamassassin: { severity: 'warning', summary: "spamd's verdict with --spamassassin: its score at or over its threshold" },
} as const satisfies Record<string, { severity: Severity; summary: string }>;

export type LinkRule = keyof typeof LINK_RULES;
