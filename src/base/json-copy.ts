/**
 * A deep copy of JSON data (objects, arrays, strings, numbers, booleans and null), as a sandbox's
 * state is made of. A new sandbox copies every area's seed, and structuredClone, which encodes any
 * value to bytes and decodes it again, took five to seven times as long as this walk.
 */
export function copyJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const copy = new Array(value.length);
    for (let index = 0; index < value.length; index++) copy[index] = copyJson(value[index]);
    return copy as T;
  }
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const member = copyJson((value as Record<string, unknown>)[key]);
    // JSON.parse makes `__proto__` a member like any other; assigned, it would set the prototype.
    if (key === '__proto__') Object.defineProperty(copy, key, { value: member, writable: true, enumerable: true, configurable: true });
    else copy[key] = member;
  }
  return copy as T;
}
