/** How `workflow show` can draw a workflow's graph: read by its declaration and by its command. */
export const GRAPH_FORMATS = ['tree', 'mermaid', 'dot'] as const;
