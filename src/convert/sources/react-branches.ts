/**
 * Which branch of a JSX condition (`a ? b : c`, `a && b`, `a || b`, `a ?? b`) a converted email
 * shows. LMX has no conditions, and two branches written one after the other say what the original
 * never shows ("VERIFY YOUR EMAILRESET YOUR PASSWORD"), so one branch is kept: the one the text
 * decides (a literal, a constant of one), as React would; failing that, the one the props' own
 * defaults choose (`type = 'verification'`); failing that, the one React draws when the condition
 * holds (`? :` its first branch, `&&` its right, `||` and `??` their left, the value as sent). The
 * branch not kept is listed at its place, its words counted as not kept. Nothing is run.
 */
import type { Findings, Place } from '../model.js';
import { cleanJsxText, type Node, snippet, unwrap } from './react-syntax.js';
import { type Known, type Static, UNKNOWN } from './react-values.js';

/** What decided the branch: the text alone, the props' defaults, or nothing the file knows. */
type Decided = 'text' | 'defaults' | 'sender';

export interface Choice {
  /** The expression shown, or the value shown where a `&&`, `||` or `??` shows its left's own value. */
  shown: { node: Node } | { value: Static };
  /** The branch left out, where the condition is the sender's to decide. */
  other?: Node;
  decided: Decided;
}

/**
 * The branch shown, given the condition's value as the text decides it (`byText`) and as the props'
 * defaults decide it (`byDefaults`); either may be UNKNOWN.
 */
export function chooseBranch(node: Node, byText: Known, byDefaults: Known): Choice {
  if (node.type === 'ConditionalExpression') {
    if (byText !== UNKNOWN) return { shown: { node: byText ? node.consequent : node.alternate }, decided: 'text' };
    if (byDefaults !== UNKNOWN)
      return { shown: { node: byDefaults ? node.consequent : node.alternate }, other: byDefaults ? node.alternate : node.consequent, decided: 'defaults' };
    return { shown: { node: node.consequent }, other: node.alternate, decided: 'sender' };
  }
  if (node.operator === '&&') {
    if (byText !== UNKNOWN) return byText ? { shown: { node: node.right }, decided: 'text' } : { shown: { value: byText }, decided: 'text' };
    if (byDefaults !== UNKNOWN && !byDefaults) return { shown: { value: byDefaults }, other: node.right, decided: 'defaults' };
    return { shown: { node: node.right }, decided: byDefaults === UNKNOWN ? 'sender' : 'defaults' };
  }
  // `||` shows its left unless it is falsy; `??` unless it is null or undefined.
  const holds = (value: Static) => (node.operator === '??' ? value !== null && value !== undefined : Boolean(value));
  if (byText !== UNKNOWN) return holds(byText) ? { shown: { value: byText }, decided: 'text' } : { shown: { node: node.right }, decided: 'text' };
  return { shown: { node: node.left }, other: node.right, decided: 'sender' };
}

/** The words a branch shows where it is written out (its JSX text and string literals), attributes aside. */
export function branchText(node: Node): string {
  const parts: string[] = [];
  const walk = (value: Node): void => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (value === null || typeof value !== 'object' || typeof value.type !== 'string' || value.type === 'JSXAttribute') return;
    if (value.type === 'JSXText') parts.push(cleanJsxText(value.value));
    else if (value.type === 'StringLiteral') parts.push(value.value);
    else if (value.type === 'TemplateElement') parts.push(value.value.cooked ?? '');
    // A condition's test decides; it shows nothing.
    for (const [key, child] of Object.entries(value))
      if (
        !['loc', 'extra', 'leadingComments', 'trailingComments', 'innerComments', 'test'].includes(key) &&
        !(key === 'left' && value.type === 'LogicalExpression' && value.operator === '&&')
      )
        walk(child);
  };
  walk(node);
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}

/** A branch that shows nothing: `null`, `undefined`, `false`, `''`. */
function showsNothing(node: Node): boolean {
  const branch = unwrap(node);
  return (
    branch.type === 'NullLiteral' ||
    branch.type === 'BooleanLiteral' ||
    (branch.type === 'Identifier' && branch.name === 'undefined') ||
    (branch.type === 'StringLiteral' && branch.value === '')
  );
}

const TODO = 'move the choice to the sender: send the text as a variable, or send one email per case';

/** Which branch was kept, and why, in words. */
function kept(node: Node, choice: Choice): string {
  const which =
    node.type === 'ConditionalExpression'
      ? `its ${'node' in choice.shown && choice.shown.node === node.consequent ? 'first' : 'second'} branch`
      : node.operator === '&&'
        ? `what it shows${'node' in choice.shown ? '' : ' (nothing)'}`
        : 'its left';
  if (choice.decided === 'defaults') return `${which} kept, as its props’ defaults choose`;
  return `${which} kept, as React draws it when ${node.type === 'LogicalExpression' && node.operator !== '&&' ? 'that is set' : 'the condition holds'}`;
}

/**
 * Lists a condition the text does not decide, and the branch left out at its place; its words are
 * counted as not kept where they are `shown` in the body (not an attribute's value, a class list, the subject).
 */
export function listChoice(findings: Findings, node: Node, choice: Choice, at: (node: Node) => Place, shown: boolean): void {
  if (choice.decided === 'text') return;
  findings.add(at(node), 'a condition in JSX', 'flattened', `the condition dropped: ${kept(node, choice)}`, TODO);
  const other = choice.other;
  if (other === undefined || showsNothing(other)) return;
  const words = branchText(other);
  const branch = unwrap(other);
  const named =
    words !== '' ? JSON.stringify(words.length > 60 ? `${words.slice(0, 57)}…` : words) : branch.type.startsWith('JSX') ? 'of JSX' : snippet(branch);
  findings.add(at(other), `the branch ${named}`, 'dropped', 'left out: LMX has no conditions, and the other branch is the one kept', TODO);
  if (words !== '' && shown) findings.leftOut.push({ text: words, at: at(other) });
}
