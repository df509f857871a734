/** Reading a parsed document: its elements in order, its variables, an element's text. */
import type { LmxDocument, LmxElement, LmxNode, LmxVariable } from './parse.js';

/** Every element in document order (depth first), without recursion. */
export function* elementsOf(root: LmxDocument | LmxElement): Generator<LmxElement> {
  const pending: LmxNode[] = [...root.children].reverse();
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (node.kind !== 'element') continue;
    yield node;
    for (let index = node.children.length - 1; index >= 0; index -= 1) pending.push(node.children[index]!);
  }
}

/** The variables a document uses, in content and attributes alike, each once (element by element, in document order). */
export function variablesOf(document: LmxDocument): LmxVariable[] {
  const seen = new Map<string, LmxVariable>();
  const add = (variable: LmxVariable) => {
    const key = `${variable.namespace}.${variable.name}`;
    if (!seen.has(key)) seen.set(key, variable);
  };
  for (const node of document.children) if (node.kind === 'variable') add(node);
  for (const element of elementsOf(document)) {
    for (const attribute of element.attributes) for (const part of attribute.parts) if (part.kind === 'variable') add(part);
    for (const child of element.children) if (child.kind === 'variable') add(child);
  }
  return [...seen.values()];
}

/** An element's text as a reader sees it: its text and variables, tags left out, spaces collapsed. */
export function textOf(element: LmxElement): string {
  let text = '';
  const pending: LmxNode[] = [...element.children].reverse();
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (node.kind === 'text') text += node.value;
    else if (node.kind === 'variable') text += node.source;
    else for (let index = node.children.length - 1; index >= 0; index -= 1) pending.push(node.children[index]!);
  }
  return text.replace(/\s+/g, ' ').trim();
}

/** The themeId a document's `<Style />` names. */
export function themeIdOf(document: LmxDocument): string | undefined {
  for (const element of elementsOf(document)) {
    if (element.name === 'Style') return element.attributes.find((attribute) => attribute.name === 'themeId')?.value;
  }
  return undefined;
}

/** The ids of the components a document embeds, each once. */
export function componentIdsOf(document: LmxDocument): string[] {
  const ids = new Set<string>();
  for (const element of elementsOf(document)) {
    const id = element.name === 'Component' ? element.attributes.find((attribute) => attribute.name === 'componentId')?.value : undefined;
    if (id !== undefined && id !== '') ids.add(id);
  }
  return [...ids];
}

/** The text of a document's first heading at the top level, or nothing. */
export function firstHeadingOf(document: LmxDocument): string {
  for (const node of document.children) if (node.kind === 'element' && /^H[123]$/.test(node.name)) return textOf(node);
  return '';
}
