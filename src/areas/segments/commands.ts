/** What the `segments` commands do. */
import { listHandler } from '../../core/list-run.js';
import { segments } from './client.js';
import { segmentListView } from './render.js';

export const list = listHandler(segments, segmentListView);
