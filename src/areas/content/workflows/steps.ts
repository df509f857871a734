/** One operation of a workflow's edit script, by node keys (plan.ts makes them, executor.ts sends them): its shape in a plan file too. */
import { z } from '../../../base/shapes.js';
import { CREATABLE_NODE_TYPES } from '../../../platform/workflows/node-facets.js';

export const workflowStep = z.discriminatedUnion('op', [
  z.object({ op: z.literal('updateWorkflowProperties'), name: z.optional(z.string()), description: z.optional(z.string()) }),
  z.object({ op: z.literal('changeWorkflowMailingList'), mailingList: z.nullable(z.string()) }),
  z.object({ op: z.literal('deleteWorkflowNode'), key: z.string(), recursive: z.boolean(), removes: z.array(z.string()) }),
  z.object({
    op: z.literal('createWorkflowNode'),
    key: z.string(),
    nodeTypeName: z.enum(CREATABLE_NODE_TYPES),
    insertMode: z.literal('between'),
    from: z.string(),
    to: z.string(),
    children: z.array(z.string()),
  }),
  z.object({ op: z.literal('addWorkflowBranch'), key: z.string(), branch: z.string() }),
  z.object({ op: z.literal('updateWorkflowNode'), key: z.string(), payload: z.record(z.string(), z.unknown()) }),
  z.object({ op: z.literal('rerouteNodeConnection'), key: z.string(), to: z.string() }),
  z.object({ op: z.literal('updateEmailMessage'), key: z.string(), email: z.string() }),
]);
export type WorkflowStep = z.infer<typeof workflowStep>;
