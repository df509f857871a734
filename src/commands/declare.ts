/**
 * What declaring a command needs and nothing more: the whole-number option parser and the
 * examples section of help. Kept apart from options.ts, which pulls in the API client and its
 * schemas, so that the entry point can declare its options without loading them.
 */
import { type Command, InvalidArgumentError } from 'commander';

export function integerIn(min: number, max: number) {
  return (value: string): number => {
    const number = Number(value);
    if (!/^\d+$/.test(value.trim()) || number < min || number > max) {
      throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}.`);
    }
    return number;
  };
}

/** The examples section of a command's help. */
export function examples(command: Command, lines: string[]): Command {
  return command.addHelpText('after', `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`);
}
