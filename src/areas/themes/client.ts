/** The theme operations of the API. */
import type { ListResource } from '../../api/client.js';
import { theme, type Theme } from './schemas.js';

export const themes: ListResource<Theme> = { path: '/v1/themes', item: theme };
