/**
 * An email as its recipients read it, components and all: each `<Component>` that shows its
 * component's own content holds that content, as the renderer draws it (one deep: components do not
 * nest), so that its text, links, images and headings are judged with the email's. What a component
 * adds has no place in the email's LMX but the `<Component>` tag: each of its nodes takes that tag's
 * line and column, and `embeddedIn` names the component a finding there came from.
 */
import type { LmxDocument, LmxElement, LmxNode } from '../parse.js';
import type { LmxPosition } from '../problems.js';

export interface Embedded {
  document: LmxDocument;
  /** The component id of each position a component's node was given: a finding at one is in that component. */
  embeddedIn: ReadonlyMap<LmxPosition, string>;
}

/** A component's nodes, copied, at the `<Component>` tag's place. */
function placed(nodes: readonly LmxNode[], at: LmxPosition, id: string, embeddedIn: Map<LmxPosition, string>): LmxNode[] {
  const here = (): LmxPosition => {
    const position = { ...at };
    embeddedIn.set(position, id);
    return position;
  };
  return nodes.map((node): LmxNode => {
    if (node.kind !== 'element') return { ...node, position: here() };
    const attributes = node.attributes.map((attribute) => ({ ...attribute, position: here() }));
    return { ...node, attributes, children: placed(node.children, at, id, embeddedIn), position: here(), end: at };
  });
}

/** The document with its components' content in it; the document itself when it embeds none the map holds. */
export function embedComponents(document: LmxDocument, components: ReadonlyMap<string, LmxDocument> | undefined): Embedded {
  const embeddedIn = new Map<LmxPosition, string>();
  if (components === undefined || components.size === 0) return { document, embeddedIn };
  const expand = (nodes: readonly LmxNode[]): LmxNode[] =>
    nodes.map((node): LmxNode => {
      if (node.kind !== 'element') return node;
      if (node.name !== 'Component') return { ...node, children: expand(node.children) };
      // Explicit children are the component's content as edited in this email: already in the document.
      if (node.children.some((child) => child.kind === 'element')) return node;
      const id = node.attributes.find((attribute) => attribute.name === 'componentId')?.value ?? '';
      const component = components.get(id);
      if (component === undefined) return node;
      const element: LmxElement = { ...node, children: placed(component.children, node.position, id, embeddedIn) };
      return element;
    });
  return { document: { kind: 'document', children: expand(document.children) }, embeddedIn };
}
