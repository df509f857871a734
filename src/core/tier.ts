/**
 * What a command that calls the API may do to the account, from least to most: read it; create
 * and update; delete, publish or send (what cannot be taken back). `loopsctl mcp` exposes a tier
 * and those below it. A module of its own, so the context can know a run's tier without the
 * declarations.
 */
export const TIERS = ['read', 'write', 'destructive'] as const;
export type Tier = (typeof TIERS)[number];
