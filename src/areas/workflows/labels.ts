/**
 * What a workflow node says about itself in one line: "wait 2 days", the subject of an email, the
 * event that starts a workflow. Shared by the tree, Mermaid and DOT renderings. A node type the
 * CLI does not know is described generically from its scalar fields.
 */
import type { Comparison } from './schemas.js';

type Node = { typeName: string; nextNodeIds: string[] } & Record<string, unknown>;

const UNIT_WORDS: Record<string, [string, string]> = {
  s: ['second', 'seconds'],
  m: ['minute', 'minutes'],
  h: ['hour', 'hours'],
  d: ['day', 'days'],
};

export function describeWait(amount: unknown, unit: unknown): string {
  const words = UNIT_WORDS[String(unit)];
  if (typeof amount !== 'number' || words === undefined) return `wait ${String(amount)} ${String(unit)}`;
  return `wait ${amount} ${amount === 1 ? words[0] : words[1]}`;
}

export function describeComparison(comparison: Comparison | undefined): string {
  if (comparison === undefined) return '?';
  const valueless = ['any', 'empty', 'not_empty', 'true', 'false', 'date_empty', 'date_not_empty'];
  return valueless.includes(comparison.operator) ? comparison.operator : `${comparison.operator} ${JSON.stringify(comparison.value)}`;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

const describers: Record<string, (node: Node) => (string | undefined)[]> = {
  TimerAction: (node) => [describeWait(node.amount, node.unit)],
  SendEmailAction: (node) => [str(node.subject) ? `"${node.subject}"` : undefined, str(node.emailMessageId) && `email ${node.emailMessageId}`],
  EventTrigger: (node) => [str(node.eventName) ? `on event "${node.eventName}"` : 'no event set', reEligible(node)],
  ContactPropertyTrigger: (node) => {
    const query = node.contactPropertyQuery as { key: string; is: Comparison; was: Comparison } | null | undefined;
    return [query ? `when ${query.key} was ${describeComparison(query.was)}, is ${describeComparison(query.is)}` : 'no property set', reEligible(node)];
  },
  AddToListTrigger: (node) => [str(node.mailingListId) && `list ${node.mailingListId}`, reEligible(node)],
  AudienceFilter: (node) => {
    const filter = node.audienceFilter as { match: string; conditions: unknown[] } | undefined;
    return [
      str(node.audienceSegmentId) && `segment ${node.audienceSegmentId}`,
      filter && `match ${filter.match} of ${filter.conditions.length} condition${filter.conditions.length === 1 ? '' : 's'}`,
    ];
  },
  BranchNode: (node) => [str(node.evalStrategy) && `evaluate ${node.evalStrategy}`],
  ExperimentBranchNode: (node) => [
    str(node.experimentType) && `${node.experimentType} experiment`,
    typeof node.samplingRate === 'number' ? `${node.samplingRate}% sampled` : undefined,
    str(node.url),
  ],
  VariantNode: (node) => [node.isControl === true ? 'control' : node.isControl === false ? 'variant' : undefined, str(node.variantId)],
  SignupTrigger: () => [],
  BlankTrigger: () => [],
  ExitAction: () => [],
};

function reEligible(node: Node): string | undefined {
  return node.reEligible === true ? 're-eligible' : undefined;
}

/** Scalar fields of a node the CLI does not know, as key=value. */
function describeGenerically(node: Node): string[] {
  return Object.entries(node)
    .filter(([key, value]) => !['typeName', 'nextNodeIds', 'id', 'workflowId'].includes(key) && value !== null && typeof value !== 'object')
    .map(([key, value]) => `${key}=${String(value)}`);
}

/** The node's key fields in a few words, or '' when it has none. */
export function describeNode(node: Node): string {
  const describe = Object.hasOwn(describers, node.typeName) ? describers[node.typeName]! : describeGenerically;
  return describe(node)
    .filter((part): part is string => typeof part === 'string' && part !== '')
    .join(', ');
}
