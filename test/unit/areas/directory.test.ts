/**
 * The directory of areas (src/areas/directory.ts), which a start reads instead of every area's
 * declarations, names each area as its declarations do, in the registry's order, and loads the
 * declarations the registry lists.
 */
import { describe, expect, it } from 'vitest';
import { allSpecs, areas } from '../../../src/areas/directory.js';
import { specs } from '../../../src/areas/registry.js';

describe('the directory of areas', () => {
  it('names every area of the registry, in its order, by its name, aliases, summary and kind', () => {
    expect(areas.map(({ name, aliases, summary, kind }) => ({ name, aliases, summary, kind }))).toEqual(
      specs.map(({ name, aliases, summary, kind }) => ({ name, aliases, summary, kind })),
    );
  });

  it("loads the registry's declarations", async () => {
    const loaded = await allSpecs();
    expect(loaded).toHaveLength(specs.length);
    loaded.forEach((spec, index) => expect(spec).toBe(specs[index]));
  });
});
