/** The kinds of LMX there are, by their words in the table of record kinds: an email of each kind, and a component, which any email may embed. A constant module: declarations read it. */
export { LMX_WORDS as LMX_KINDS, type LmxWord as LmxKind } from '../platform/record-kinds.js';
