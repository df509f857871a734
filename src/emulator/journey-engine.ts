/**
 * The journeys' engine as the routes reach it: loaded when an operation lists it in `uses` (a
 * contact's write, an event), so a look-up never loads it. The engine stands on the routes'
 * records (journeys/ imports routes/); the routes start journeys through this handle alone, so the
 * two folders depend one way.
 */
import { later } from './module.js';

export const journeyEngine = later(() => import('./journeys/engine.js'));
