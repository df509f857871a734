/** Numbers as people read them: counts with thousands separators, rates as percentages with two decimals. */

/** 52907 as "52,907"; a fraction is rounded. Written by hand: ICU's number format takes some 10 ms to make, longer than many a command. */
export function formatCount(count: number): string {
  return Math.round(count)
    .toString()
    .replace(/\B(?=(\d{3})+$)/g, ',');
}

/**
 * `part` as a percentage of `whole` with two decimals: 4 of 52,907 is "0.01%". A rate that rounds
 * to 0.00% or 100.00% without being exactly that reads "<0.01%" or ">99.99%", so a few bounces
 * never show as none. '-' when the whole is zero: there is no rate of nothing.
 */
export function formatRate(part: number, whole: number): string {
  if (whole <= 0) return '-';
  const percent = (part / whole) * 100;
  const shown = percent.toFixed(2);
  if (shown === '0.00' && part > 0) return '<0.01%';
  if (shown === '100.00' && part < whole) return '>99.99%';
  return `${shown}%`;
}

/** "1 record", "3 records": a number and a noun that takes an s. */
export function countOf(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
