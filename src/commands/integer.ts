/**
 * The whole-number option parser. Kept apart from options.ts, which pulls in the API client and its
 * schemas, so that the entry point can declare --timeout without loading them.
 */
import { InvalidArgumentError } from 'commander';

export function integerIn(min: number, max: number) {
  return (value: string): number => {
    const number = Number(value);
    if (!/^\d+$/.test(value.trim()) || number < min || number > max) {
      throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}.`);
    }
    return number;
  };
}
