/**
 * The largest and smallest of a list of numbers, however long: `Math.max(...values)` passes each
 * value as an argument, and a list of some hundred thousand (the words of a 2 MB paragraph) ends
 * the stack.
 */
export function largest(values: Iterable<number>, floor = -Infinity): number {
  let top = floor;
  for (const value of values) if (value > top) top = value;
  return top;
}

export function smallest(values: Iterable<number>, ceiling = Infinity): number {
  let bottom = ceiling;
  for (const value of values) if (value < bottom) bottom = value;
  return bottom;
}
