/**
 * The unit checks a new resource must pass that read the docs, on the copy with the widget
 * (test/support/scaffold.ts), once it has what `npm run docs` and `npm run contract` make: a fact
 * the section does not name fails one of them. Those that read only the rows and registries: scaffold-rows.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/main.js';
import { checkCopy, copyWithWidget } from '../support/scaffold.js';

let copy: string;

beforeAll(() => {
  copy = copyWithWidget(tempDir('loopsctl-scaffold-'));
});

describe('the unit checks that read the docs, on the copy with the widget', () => {
  it('pass once `npm run docs` and `npm run contract` have made what they make, and nothing else is changed', () => {
    const { checks, status, output } = checkCopy(copy, true);
    // Those that once failed on facts the section did not name: a row without `kind`, the capabilities by area, the completion scripts' sizes.
    expect(checks).toEqual(
      expect.arrayContaining(['test/unit/build/reference.test.ts', 'test/unit/build/docs-facts.test.ts', 'test/unit/platform/record-kinds.test.ts']),
    );
    expect(status, output).toBe(0);
  });
});
