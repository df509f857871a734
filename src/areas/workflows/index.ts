/** `loopsctl workflow` (alias `workflows`): workflows, their graphs, and editing them. */
import { command, type FlagSet, group, type OptionSpec, PLAN_OPTIONS, type Spec } from '../../core/declare.js';
import { JSON_OR_JSONL, listCommand } from '../../core/list.js';
import { WEB_OPTION, WEB_OR_JSON } from '../../core/web-option.js';
import { CREATABLE_NODE_TYPES, QUEUED_CONTACT_POLICIES } from '../../platform/workflows/node-facets.js';
import { GRAPH_FORMATS } from './graph-formats.js';

const METRICS_OR_JSON: FlagSet = { flags: ['--metrics', '--json'], hint: 'for the metrics as JSON, run `loopsctl workflow nodes metrics <id> --json`' };
const DRAWING_OR_JSON: FlagSet = { flags: ['--format', '--json'], hint: '--format draws the whole workflow; --json prints it as the API answers' };
const DETAILS_OR_JSON: FlagSet = {
  flags: ['--details', '--json'],
  hint: '--details reads the conditions for a drawing; --json prints the workflow as the API answers (and --node <id> one node in full)',
};

/** Where a new node goes. */
const NODE_PLACE: FlagSet = { flags: ['--after', '--before', '--between'] };
/** The fields a node update changes. */
const NODE_FIELDS: FlagSet = { flags: ['--set', '--payload-file'] };

const ALPHA_NOTE = 'The workflow API is in alpha and may change: node types and fields loopsctl does not know are shown as they come.';
const REVISION_NOTE =
  'Every change is made against a revision of the workflow: --expected-revision-id, else the one loopsctl reads first (named on stderr). If the workflow changed since, the API refuses (exit 5) and nothing changes. In text mode the graph after the change is drawn as `workflow show` draws it, conditions included, with added (+), changed (~) and removed (-) nodes marked, then the new revision.';

// Seed ids of the sandbox: the trial, welcome and win-back workflows, and nodes of them.
const TRIAL = 'cnm1gv0otq1z57mnend2pws3y';
const TRIAL_BRANCH = 'cvxrxvoz3umcxj5nj73mfj9vi';
const WELCOME = 'cmypp2eo4jy28v8rq0khsjwhq';
const WELCOME_WAIT = 'cjqgd7s016x333ti5jtkx19m2';
const WIN_BACK = 'cw509z9tjxv56rte3vt30437u';
const WIN_BACK_FILTER = 'ccaupowsk6riuwqxc5jsidoxl';
const WIN_BACK_EXPERIMENT = 'cu46uqyjwgaeml2epsiw5a711';
const WIN_BACK_HOLDOUT = 'c9y1bl219ch0v4444wv1ncklp';
const WIN_BACK_OFFER = 'cjrpfq0ccanbsar20kjhn7aby';
const WIN_BACK_OFFER_VARIANT = 'c3qbrs0pv0lkyjx2b5agp7gce';
const BETA_LIST = 'ccr5wuhgixvhysmch2s25o20h';
const WELCOME_TIPS = 'cf8uwj4g3qinzp0w91rvhycex';

const METRICS_NOTE = 'The metrics API must be enabled for the team (else 401, exit 3).';

const revision: OptionSpec = {
  flags: '--expected-revision-id <revisionId>',
  description: 'the revision to change ("null" for a workflow without one); default: the current one, read first',
};
const dryRun: OptionSpec = {
  flags: '--dry-run',
  description: 'say what would change, and how many queued contacts it would discard, without changing anything',
};
const queuedContacts: OptionSpec = {
  flags: '--queued-contacts <policy>',
  description: 'contacts queued where the change removes them: fail (report them and change nothing; the default) or discard (asks first)',
  choices: QUEUED_CONTACT_POLICIES,
};
/** A node edit of a workflow that is not a draft moves its contacts: the gate lets it go only with this (src/core/gate.ts). */
const live: OptionSpec = {
  flags: '--live',
  description: 'change a workflow that is not a draft (sending or paused): contacts move through it',
  tier: 'destructive',
};
const yes: OptionSpec = { flags: '--yes', description: 'do not ask for confirmation (needed when not on a terminal)' };

const editHelp = `${REVISION_NOTE}\n\n${ALPHA_NOTE}`;

const nodes = group({
  name: 'nodes',
  aliases: ['node'],
  summary: "A workflow's nodes: get, metrics, add, update, reroute, add-branch, delete",
  help: editHelp,
  examples: [`loopsctl workflow nodes add ${WIN_BACK} --type TimerAction --between ${WIN_BACK_FILTER} ${WIN_BACK_EXPERIMENT}`],
  // The declarations are data, a list read as a whole (help, completion, the reference): one piece.
  commands: () => [
    command({
      name: 'get',
      aliases: ['show', 'view'],
      summary: 'Show every field of one node (as `workflow show <id> --node <nodeId>`)',
      help: ALPHA_NOTE,
      args: [
        { name: 'id', description: 'workflow id', completes: 'workflows' },
        { name: 'nodeId', description: 'node id' },
      ],
      examples: [`loopsctl workflow nodes get ${TRIAL} ${TRIAL_BRANCH}`],
      remote: true,
      tier: 'read',
      load: async () => (await import('./show.js')).nodeGet,
    }),
    command({
      name: 'metrics',
      summary: "Show all-time engagement metrics of a workflow's send-email nodes, with rates over sends",
      help: `Without node ids, every send-email node of the workflow, in the order the tree draws them. Sends,
opens, clicks, unsubscribes, hard and soft bounces and spam reports, with the open, click,
unsubscribe, bounce and spam rates over sends, and each node's subject. A node given that sends no
email has no metrics: it is named on stderr and does not fail the run; each node that failed is
reported on stderr, and the exit code is the highest of the failures'. --json prints an array of
objects with workflowId and nodeId; --jsonl one per line. ${METRICS_NOTE}`,
      args: [
        { name: 'id', description: 'workflow id', completes: 'workflows' },
        { name: 'nodeId', description: 'send-email node ids (default: all of them)', required: false, variadic: true },
      ],
      options: [{ flags: '--jsonl', description: 'print one compact JSON object per line (instead of --json)' }],
      examples: [`loopsctl workflow nodes metrics ${WELCOME}`, `loopsctl workflow nodes metrics ${WELCOME} ${WELCOME_TIPS} --json`],
      remote: true,
      tier: 'read',
      constraints: { exclusive: [JSON_OR_JSONL] },
      load: async () => (await import('./metrics.js')).nodeMetrics,
    }),
    command({
      name: 'add',
      // The Loops CLI's word.
      aliases: ['create'],
      summary: 'Insert a new node with default settings after, before or between nodes (a branch brings its default paths)',
      help: editHelp,
      args: [{ name: 'id', description: 'workflow id', completes: 'workflows' }],
      options: [
        ...PLAN_OPTIONS,
        { flags: '--type <typeName>', description: 'the kind of node', choices: CREATABLE_NODE_TYPES, required: true },
        { flags: '--after <nodeId>', description: 'after this node, which must have exactly one outgoing connection' },
        { flags: '--before <nodeId>', description: 'before this node, on every connection into it' },
        { flags: '--between <nodeIds...>', description: 'between two connected nodes: <fromId> <toId>' },
        revision,
        live,
      ],
      examples: [
        `loopsctl workflow nodes add ${WIN_BACK} --type TimerAction --between ${WIN_BACK_FILTER} ${WIN_BACK_EXPERIMENT}`,
        `loopsctl workflow nodes add ${WIN_BACK} --type SendEmailAction --after ${WIN_BACK_FILTER}`,
      ],
      remote: true,
      tier: 'write',
      constraints: { exclusive: [NODE_PLACE], oneRequired: [NODE_PLACE] },
      load: async () => (await import('./nodes.js')).nodeAdd,
    }),
    command({
      name: 'update',
      summary: "Change a node's own fields, checked against its type first (TimerAction: amount, unit)",
      help: `--set takes field=text, or field:=<json> for a number, true, false, null or an object ({"match":"all",...}), as --prop and --var do.\n\n${editHelp}`,
      args: [
        { name: 'id', description: 'workflow id', completes: 'workflows' },
        { name: 'nodeId', description: 'node id' },
      ],
      options: [
        ...PLAN_OPTIONS,
        { flags: '--set <field=value>', description: 'a field to change: field=text, or field:=<json> (repeatable)', repeatable: true },
        {
          flags: '--payload-file <file>',
          description: 'the fields to change as a JSON object, from a file or - for stdin',
          file: { inline: { name: 'payload', encoding: 'json', description: 'the fields to change, as a JSON object' } },
        },
        revision,
        live,
      ],
      examples: [`loopsctl workflow nodes update ${WELCOME} ${WELCOME_WAIT} --set amount:=3 --set unit=d --live`],
      remote: true,
      tier: 'write',
      constraints: { exclusive: [NODE_FIELDS], oneRequired: [NODE_FIELDS] },
      load: async () => (await import('./nodes.js')).nodeUpdate,
    }),
    command({
      name: 'reroute',
      summary: "Move a node's one outgoing connection to another node",
      help: `The node must have exactly one outgoing connection (not a branch), and the node it leads to now must keep another incoming one.\n\n${editHelp}`,
      args: [
        { name: 'id', description: 'workflow id', completes: 'workflows' },
        { name: 'nodeId', description: 'the node whose connection moves' },
      ],
      options: [...PLAN_OPTIONS, { flags: '--to <targetNodeId>', description: 'the node it should lead to', required: true }, revision, live],
      examples: [`loopsctl workflow nodes reroute ${WIN_BACK} ${WIN_BACK_HOLDOUT} --to ${WIN_BACK_OFFER}`],
      remote: true,
      tier: 'write',
      load: async () => (await import('./nodes.js')).nodeReroute,
    }),
    command({
      name: 'add-branch',
      summary: 'Add a path to a BranchNode (an AudienceFilter) or an ExperimentBranchNode (a VariantNode)',
      help: editHelp,
      args: [
        { name: 'id', description: 'workflow id', completes: 'workflows' },
        { name: 'nodeId', description: 'the branch or experiment node' },
      ],
      options: [...PLAN_OPTIONS, revision, live],
      examples: [`loopsctl workflow nodes add-branch ${WIN_BACK} ${WIN_BACK_EXPERIMENT}`],
      remote: true,
      tier: 'write',
      load: async () => (await import('./nodes.js')).nodeAddBranch,
    }),
    command({
      name: 'delete',
      summary: 'Delete a node (its parents then lead to its child), or with --recursive the node and all only it leads to',
      help: `Asks first (--yes when not on a terminal). When contacts are queued at a node it would remove, nothing is deleted unless --queued-contacts discard is given: the impact is shown and the exit code is 5.\n\n${editHelp}`,
      args: [
        { name: 'id', description: 'workflow id', completes: 'workflows' },
        { name: 'nodeId', description: 'node id' },
      ],
      options: [
        ...PLAN_OPTIONS,
        { flags: '--recursive', description: 'also delete the nodes downstream that nothing else leads to' },
        dryRun,
        queuedContacts,
        yes,
        revision,
      ],
      examples: [
        `loopsctl workflow nodes delete ${WIN_BACK} ${WIN_BACK_OFFER_VARIANT} --recursive --dry-run`,
        `loopsctl workflow nodes delete ${WELCOME} ${WELCOME_WAIT} --dry-run`,
      ],
      remote: true,
      tier: 'destructive',
      load: async () => (await import('./nodes.js')).nodeDelete,
    }),
  ],
});

export const spec: Spec = group({
  name: 'workflow',
  aliases: ['workflows'],
  summary: 'Workflows and their graphs: list, show, create, update, set-list, delete, nodes (alpha API)',
  help: ALPHA_NOTE,
  examples: ['loopsctl workflow list', `loopsctl workflow show ${TRIAL}`, `loopsctl workflow nodes add-branch ${WIN_BACK} ${WIN_BACK_EXPERIMENT}`],
  // The declarations are data, a list read as a whole (help, completion, the reference): one piece.
  commands: () => [
    listCommand({
      summary: 'List workflows',
      example: 'loopsctl workflow list',
      help: ALPHA_NOTE,
      output: async () => (await import('../../platform/workflows/schemas.js')).workflowSummary,
      load: async () => (await import('./list.js')).list,
    }),
    command({
      name: 'test',
      summary: 'Run a workflow on one contact in a throwaway sandbox, its clock moved through every wait: the journey and the emails, in order',
      help: `Reads the workflow and its nodes in full (one request each, at the API's pace) and the segments its filters name, or, with --file, a workflow pulled into a content tree (no key and no request, unless its filters name segments: those are the account's, read by name with the key at hand), then runs it in a sandbox of this process that is thrown away after: the contact is created (on the workflow's mailing list, if it has one), enters as the trigger says (the event, given or the trigger's own; its sign-up; its list), or is placed at the trigger, and the sandbox's clock is moved through every wait, up to --for (default: until every journey ends, at most a year). Prints the journey as \`loopsctl sandbox journeys\` draws it, then each email with its time after entry. Nothing is sent and nothing of the account changes. --expect-emails gives the subjects, in order, that the contact must get: exit 1 when the emails differ (a check for CI after a workflow edit). --json prints {journeys, emails, ended}.`,
      args: [{ name: 'id', description: 'workflow id (or --file)', completes: 'workflows', required: false, orOption: '--file' }],
      options: [
        {
          flags: '--file <path>',
          description:
            "run a workflow of a content tree instead: its workflow.yaml, or the directory holding it (no key, no request; a filter by segment reads the account's segment, with a key)",
          file: {},
        },
        {
          flags: '--contact <email or json>',
          description: 'the contact: an email, or a JSON object with its email, fields and custom properties',
          required: true,
        },
        {
          flags: '--contact-prop <name=value>',
          description: 'a field or custom property of the contact: name=string, or name:=<json> (a number, true, false, null); repeatable',
          repeatable: true,
        },
        { flags: '--event <name>', description: "the event that starts it (default: its trigger's own event, if it has one)" },
        { flags: '--prop <name=value>', description: 'an event property: name=string, or name:=<json>; repeatable (with --event)', repeatable: true },
        { flags: '--for <duration>', description: 'how long to run: 3d, 1h30m, 2w (default: until every journey ends, at most a year)' },
        {
          flags: '--expect-emails <subjects>',
          description: 'the subjects the contact must get, in order, comma-separated (or a JSON array, for subjects with commas): exit 1 otherwise',
        },
      ],
      examples: [
        `loopsctl workflow test ${TRIAL} --contact sam@example.com --contact-prop projectsCreated:=0`,
        `loopsctl workflow test ${TRIAL} --contact sam@example.com --contact-prop projectsCreated:=3 --for 2d --json`,
        `loopsctl workflow test ${TRIAL} --contact sam@example.com --contact-prop projectsCreated:=0 --expect-emails "Your first project in 5 minutes, Your trial ends in 4 days"`,
      ],
      mismatch: 'the emails the contact got differ from --expect-emails',
      remote: true,
      tier: 'read',
      load: async () => (await import('./test.js')).test,
    }),
    command({
      name: 'show',
      aliases: ['get', 'view'],
      summary: "Draw a workflow's graph as a tree from its trigger, a Mermaid flowchart or a DOT digraph, or show one node in full with --node",
      help: ALPHA_NOTE,
      args: [{ name: 'id', description: 'workflow id (or --file)', completes: 'workflows', required: false, orOption: '--file' }],
      options: [
        {
          flags: '--file <path>',
          description: 'draw a workflow of a content tree instead: its workflow.yaml, or the directory holding it (no request is made)',
          file: {},
        },
        { flags: '--node <nodeId>', description: 'show every field of this node' },
        { flags: '--format <format>', description: 'how to draw the graph', choices: GRAPH_FORMATS, default: 'tree' },
        { flags: '--metrics', description: "each send-email node's sends, open and click rates beside it (the metrics API must be enabled)" },
        {
          flags: '--details',
          description: `read the condition of every filter and branch node, one request each at the API's pace (without it, only a workflow with at most 20 such nodes has its conditions read)`,
        },
        WEB_OPTION,
      ],
      examples: [
        `loopsctl workflow show ${TRIAL}`,
        `loopsctl workflow show ${WELCOME} --metrics`,
        `loopsctl workflow show ${TRIAL} --details`,
        `loopsctl workflow show ${TRIAL} --web`,
        `loopsctl workflow show ${TRIAL} --format mermaid > workflow.mmd`,
        `loopsctl workflow show ${TRIAL} --format dot > workflow.dot`,
        `loopsctl workflow show ${TRIAL} --node ${TRIAL_BRANCH}`,
        `loopsctl workflow show ${TRIAL} --json`,
      ],
      remote: true,
      tier: 'read',
      // A drawing and the API's JSON (or one node) are different answers: asking for both is a mistake.
      constraints: {
        exclusive: [
          DRAWING_OR_JSON,
          { ...DRAWING_OR_JSON, flags: ['--format', '--jq'] },
          METRICS_OR_JSON,
          { ...METRICS_OR_JSON, flags: ['--metrics', '--jq'] },
          ...WEB_OR_JSON,
          // One node, a page in the browser and a drawing are different answers (metrics go into any drawing).
          { flags: ['--format', '--node', '--web'] },
          { flags: ['--metrics', '--node', '--web'] },
          { flags: ['--details', '--node', '--web'] },
          DETAILS_OR_JSON,
          { ...DETAILS_OR_JSON, flags: ['--details', '--jq'] },
        ],
      },
      load: async () => (await import('./show.js')).show,
    }),
    command({
      name: 'create',
      summary: 'Create a draft workflow with a blank trigger and an exit node',
      help: ALPHA_NOTE,
      options: [
        { flags: '--name <name>', description: 'its name', required: true },
        { flags: '--description <text>', description: 'what it is for' },
        { flags: '--list <list>', description: 'the mailing list it sends to, by its id or its name' },
      ],
      examples: ['loopsctl workflow create --name "Re-engagement" --description "For contacts quiet for 90 days"'],
      remote: true,
      tier: 'write',
      load: async () => (await import('./create.js')).create,
    }),
    command({
      name: 'update',
      summary: 'Rename a workflow or change its description (its mailing list: see set-list)',
      help: editHelp,
      args: [{ name: 'id', description: 'workflow id', completes: 'workflows' }],
      options: [
        ...PLAN_OPTIONS,
        { flags: '--name <name>', description: 'new name' },
        { flags: '--description <text>', description: 'new description' },
        revision,
      ],
      examples: [`loopsctl workflow update ${WIN_BACK} --name "Win-back"`],
      remote: true,
      tier: 'write',
      constraints: { oneRequired: [{ flags: ['--name', '--description'] }] },
      load: async () => (await import('./update.js')).update,
    }),
    command({
      name: 'set-list',
      summary: 'Change the mailing list a workflow sends to, or clear it with none',
      help: `Contacts queued in the workflow that the new list excludes are reported, and nothing changes, unless --queued-contacts discard is given (which asks first; --yes when not on a terminal); the exit code is then 5. Clearing the list discards no one.\n\n${editHelp}`,
      args: [
        { name: 'id', description: 'workflow id', completes: 'workflows' },
        { name: 'list', description: 'the mailing list, by its id or its name, or none' },
      ],
      options: [...PLAN_OPTIONS, dryRun, queuedContacts, yes, revision],
      examples: [`loopsctl workflow set-list ${WELCOME} ${BETA_LIST} --dry-run`, `loopsctl workflow set-list ${WELCOME} none`],
      remote: true,
      tier: 'destructive',
      load: async () => (await import('./set-list.js')).setList,
    }),
    command({
      name: 'delete',
      summary: 'Delete a workflow at a known revision, confirming again when it is sending or has queued contacts',
      help: `Needs the revision to delete: --expected-revision-id, or --force for the one it is at now; a
workflow changed since that revision is not deleted (exit 5, naming its current revision). Asks
first (--yes when not on a terminal). When the workflow is sending or has queued contacts, the API
asks to confirm: loopsctl says how many contacts and what stops, and deletes it only after a
second yes (--confirm-delete in scripts); without it nothing changes and the exit code is 5.
--dry-run reads the workflow and says what would happen. With --json a deletion prints nothing;
the exit code tells.

${ALPHA_NOTE}`,
      args: [{ name: 'id', description: 'workflow id', completes: 'workflows' }],
      options: [
        { flags: '--expected-revision-id <revisionId>', description: 'the revision to delete ("null" for a workflow without one)' },
        { flags: '--force', description: 'delete it at the revision it is at now, read first' },
        { flags: '--confirm-delete', description: 'also when it is sending or has queued contacts: stop sending and cancel them' },
        { flags: '--dry-run', description: 'say what would happen without deleting anything' },
        yes,
      ],
      examples: [
        `loopsctl workflow delete ${WIN_BACK} --dry-run`,
        `loopsctl workflow delete ${WIN_BACK} --force --yes`,
        `loopsctl workflow delete ${WELCOME} --force --yes --confirm-delete`,
      ],
      remote: true,
      tier: 'destructive',
      constraints: {
        exclusive: [{ flags: ['--expected-revision-id', '--force'], hint: 'give the revision to delete, or --force to delete it at the one it is at now' }],
      },
      load: async () => (await import('./delete.js')).remove,
    }),
    nodes,
  ],
});
