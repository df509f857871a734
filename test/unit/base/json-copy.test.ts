import { describe, expect, it } from 'vitest';
import { copyJson } from '../../../src/base/json-copy.js';
import { loadSandboxModules } from '../../../src/emulator/api.js';

describe('copyJson', () => {
  it('copies every level, so that changing the copy leaves the original as it was', () => {
    const original = { name: 'a', tags: ['x', { deep: [1, 2] }], nested: { on: true, none: null, count: 0 } };
    const copy = copyJson(original);
    expect(copy).toStrictEqual(original);
    (copy.tags[1] as { deep: number[] }).deep.push(3);
    copy.nested.on = false;
    copy.tags.push('y');
    expect(original).toStrictEqual({ name: 'a', tags: ['x', { deep: [1, 2] }], nested: { on: true, none: null, count: 0 } });
  });

  it('keeps a member named __proto__ a member, as JSON.parse makes it, without touching the prototype', () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": true}, "plain": 1}');
    const copy = copyJson(parsed);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'plain']);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(parsed));
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('copies each area’s seed to what structuredClone gives, sharing no object with it', async () => {
    for (const part of (await loadSandboxModules()).flatMap((module) => module.slices)) {
      const first = part.seed();
      const second = part.seed();
      expect(second, part.key).toStrictEqual(structuredClone(first));
      if (typeof first === 'object' && first !== null) expect(second).not.toBe(first);
      if (Array.isArray(first) && Array.isArray(second) && typeof first[0] === 'object') expect(second[0]).not.toBe(first[0]);
    }
  });
});
