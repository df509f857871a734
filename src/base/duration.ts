/** A duration as a person writes one on the command line: 30m, 1h, 1h30m, 2d, 1w. */

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** The duration in milliseconds, or undefined for text that is not one (or is zero). */
export function parseDurationMs(text: string): number | undefined {
  if (!/^(\d+[smhdw])+$/.test(text)) return undefined;
  const ms = [...text.matchAll(/(\d+)([smhdw])/g)].reduce((sum, [, amount, unit]) => sum + Number(amount) * UNIT_MS[unit!]!, 0);
  return ms > 0 && Number.isSafeInteger(ms) ? ms : undefined;
}
