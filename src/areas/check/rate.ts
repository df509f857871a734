/** Rates as the thresholds take them; imports nothing, as the declarations read it. */

/** `2%`, `0.5%`, or a fraction such as 0.02: a rate as a fraction. */
export function parseRate(value: string | number): number | undefined {
  if (typeof value === 'number') return value >= 0 && value <= 1 ? value : undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(%?)\s*$/.exec(value);
  if (match === null) return undefined;
  const number = Number(match[1]);
  const fraction = match[2] === '%' ? number / 100 : number;
  return fraction <= 1 ? fraction : undefined;
}
