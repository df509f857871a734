/**
 * The emulator's registry says which paths each route module serves, so that a request loads only
 * the modules of its path: what it says must be what the modules declare.
 */
import { describe, expect, it } from 'vitest';
import { modulesServing, routeModules } from '../../../src/emulator/registry.js';

describe('the route registry', () => {
  it('names, for each module, exactly the paths its routes are under', async () => {
    for (const entry of routeModules) {
      const module = await entry.load();
      const served = new Set(module.routes.map((route) => entry.serves.find((prefix) => route.path === prefix || route.path.startsWith(`${prefix}/`))));
      // Every route is under a path the entry names, and every path it names has a route.
      expect(served.has(undefined), module.routes.map((route) => route.path).join(', ')).toBe(false);
      expect([...served].sort()).toEqual([...entry.serves].sort());
    }
  });

  it('finds the modules of a request by its path, a longer name that starts the same not included', async () => {
    const loaded = async (path: string) => {
      const modules = await Promise.all(modulesServing(path).map((entry) => entry.load()));
      return modules.flatMap((module) => module.routes.map((route) => `${route.method} ${route.path}`));
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
