import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as errors from '../../../src/base/errors.js';
import { EXIT_CODES, ExitCode } from '../../../src/base/exit-codes.js';
import { run } from '../../support/main.js';

const readme = readFileSync(resolve(import.meta.dirname, '../../../README.md'), 'utf8');

/** The exports that are concrete error classes; the abstract LoopsctlError is not one. */
type ConcreteErrorClass = Extract<(typeof errors)[keyof typeof errors], new (message: string) => errors.LoopsctlError>;

describe('the exit-code table', () => {
  it('is the README table, row for row', () => {
    const start = readme.indexOf('| code | meaning |');
    const section = readme.slice(start, readme.indexOf('\n\n', start));
    const rows = section
      .split('\n')
      .slice(2)
      .filter((line) => line.startsWith('| '))
      .map((line) => line.split(' | ').map((cell) => cell.replace(/^\| | \|$/g, '')));
    expect(rows).toEqual(EXIT_CODES.map(({ code, meaning }) => [String(code), meaning]));
  });

  it('is what --help prints', async () => {
    const { stdout } = await run(['--help']);
    for (const { code } of EXIT_CODES) expect(stdout).toMatch(new RegExp(`^  ${code} +\\S`, 'm'));
  });

  it('holds every code an error class exits with', () => {
    const codes = new Set<number>(Object.values(ExitCode));
    const classes = Object.values(errors).filter(
      (value): value is ConcreteErrorClass => typeof value === 'function' && value.prototype instanceof errors.LoopsctlError,
    );
    expect(classes.length).toBeGreaterThan(8);
    for (const ErrorClass of classes) expect(codes.has(new ErrorClass('x').exitCode), ErrorClass.name).toBe(true);
  });
});
