/**
 * The preview operation's daily allowance (POST /v1/email-messages/{emailMessageId}/preview), as
 * the API's description states it: "Each team can send up to 100 preview emails per day." The
 * sandbox refuses the one past it (429), and loopsctl's word for the API's 429 names it: one rule,
 * read by both.
 */
export const PREVIEWS_PER_DAY = 100;
