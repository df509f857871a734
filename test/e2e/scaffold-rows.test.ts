/**
 * The unit checks a new resource must pass that read the rows and registries, on the copy with the widget
 * (test/support/scaffold.ts), once it has what `npm run docs` and `npm run contract` make: a fact
 * the section does not name fails one of them. Those that read the docs: scaffold-docs.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/main.js';
import { checkCopy, copyWithWidget } from '../support/scaffold.js';

let copy: string;

beforeAll(() => {
  copy = copyWithWidget(tempDir('loopsctl-scaffold-'));
});

describe('the unit checks that read the rows and registries, on the copy with the widget', () => {
  it('pass once `npm run docs` and `npm run contract` have made what they make, and nothing else is changed', () => {
    const { checks, status, output } = checkCopy(copy, false);
    // Those that once failed on facts the section did not name: the contract, the attack suite's declarations.
    expect(checks).toEqual(expect.arrayContaining(['test/unit/platform/configuration-writes.test.ts', 'test/unit/core/gate-routing.test.ts']));
    expect(status, output).toBe(0);
  });
});
