import { listHandler } from '../../core/list-run.js';
import * as api from './client.js';
import { workflowListView } from './render.js';

export const list = listHandler(api.workflows, workflowListView);
