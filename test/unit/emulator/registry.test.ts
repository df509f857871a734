/**
 * The emulator's registry says which operations each route module answers, and so which paths it
 * serves, so that a request loads only the modules of its path: what it says must be what the
 * modules declare, and every operation of the rows is answered once.
 */
import { describe, expect, it } from 'vitest';
import { placeOf } from '../../../src/emulator/module.js';
import { modulesServing, routeModules } from '../../../src/emulator/registry.js';
import { OPERATIONS } from '../../../src/platform/operations.js';

describe('the route registry', () => {
  it('names, for each module, exactly the operations its routes answer and the paths they are under', async () => {
    for (const entry of routeModules) {
      const module = await entry.load();
      const answered = module.routes.flatMap((route) => ('operation' in route ? [route.operation] : []));
      expect([...answered].sort()).toEqual([...entry.answers].sort());
      const paths = module.routes.map((route) => placeOf(route).path);
      const served = new Set(paths.map((path) => entry.serves.find((prefix) => path === prefix || path.startsWith(`${prefix}/`))));
      // Every route is under a path the entry names, and every path it names has a route.
      expect(served.has(undefined), paths.join(', ')).toBe(false);
      expect([...served].sort()).toEqual([...entry.serves].sort());
    }
  });

  it('answers each operation of the rows in one module, and no path of its own under the API', async () => {
    const answered = routeModules.flatMap((entry) => entry.answers);
    expect([...answered].sort()).toEqual(Object.keys(OPERATIONS).sort());
    expect(() => placeOf({ method: 'GET', path: '/v1/themes/:themeId/unknown', run: () => ({ status: 200, body: null }) })).toThrow('outside the API');
  });

  it('finds the modules of a request by its path, a longer name that starts the same not included', async () => {
    const loaded = async (path: string) => {
      const modules = await Promise.all(modulesServing(path).map((entry) => entry.load()));
      return modules.flatMap((module) => module.routes.map(placeOf).map((route) => `${route.method} ${route.path}`));
    };
    const transactional = await loaded('/v1/transactional');
    expect(transactional).toEqual(expect.arrayContaining(['GET /v1/transactional', 'POST /v1/transactional']));
    expect(transactional.filter((route) => route.includes('/v1/transactional-groups'))).toEqual([]);
    expect(await loaded('/v1/workflows/abc/nodes/def')).toContain('GET /v1/workflows/:workflowId/nodes/:nodeId');
    expect(await loaded('/v1/contacts/properties')).toContain('POST /v1/contacts/properties');
    // Only the module that prepares every request (the journeys': it releases the waits that ended).
    expect(modulesServing('/v1/nothing-here').map((entry) => entry.everyRequest)).toEqual([true]);
  });
});
