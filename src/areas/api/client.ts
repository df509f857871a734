/** The API as `loopsctl api` sees it: any list, whatever its items. */
import type { ListResource } from '../../api/client.js';
import { z } from '../../base/shapes.js';

export function anyList(path: string): ListResource<unknown> {
  return { path, item: z.unknown() };
}
