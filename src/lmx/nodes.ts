/** The LMX tree's nodes, as the parser (parse.ts) builds them and every reader of a document walks them. */
import type { LmxPosition } from './problems.js';
import type { LmxNamespace } from './tags.js';

export interface LmxText {
  kind: 'text';
  /** With character references decoded. */
  value: string;
  position: LmxPosition;
}

export interface LmxVariable {
  kind: 'variable';
  namespace: LmxNamespace;
  name: string;
  /** As written, braces included: `{contact.firstName}`. LMX has no inline fallback syntax. */
  source: string;
  position: LmxPosition;
}

export interface LmxAttribute {
  name: string;
  /** With character references decoded. */
  value: string;
  /** The value as text and variables; any attribute's value is split so, whether it takes variables or not. */
  parts: (LmxText | LmxVariable)[];
  position: LmxPosition;
}

export interface LmxElement {
  kind: 'element';
  name: string;
  attributes: LmxAttribute[];
  children: LmxNode[];
  /** Written `<Name ... />`. */
  selfClosing: boolean;
  /** Where its opening tag starts, and where the element ends (just past its closing tag). */
  position: LmxPosition;
  end: LmxPosition;
}

export type LmxNode = LmxElement | LmxText | LmxVariable;

/** The top level: whitespace between block tags is not kept, nor inside tags whose content is `none`. */
export interface LmxDocument {
  kind: 'document';
  children: LmxNode[];
}
