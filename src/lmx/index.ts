/**
 * LMX, the platform's email markup, as its published specification defines it: shared by the CLI
 * (`content check`, rendering) and the emulator (compiling bodies, Guardian), importing neither.
 *
 * - `parseLmx(source)` -> `{ document, problems }`: the typed tree, in linear time, never throwing.
 *   `LmxDocument { kind: 'document', children }`; nodes are
 *   `LmxElement { kind: 'element', name, attributes: LmxAttribute[], children, selfClosing, position, end }`,
 *   `LmxText { kind: 'text', value, position }` (character references decoded) and
 *   `LmxVariable { kind: 'variable', namespace: 'contact' | 'event' | 'data', name, source, position }`
 *   (LMX has no inline fallback syntax: fallbacks live on the email message).
 *   `LmxAttribute { name, value, parts: (LmxText | LmxVariable)[], position }`. Positions are
 *   `{ line, column, offset }`, line and column 1-based. Whitespace between blocks is dropped;
 *   `<CodeBlock>` text keeps its braces. Tags nest at most MAX_LMX_DEPTH deep (deeper is an error
 *   and the rest is not read), so code walking the tree may recurse.
 * - `validateLmx(document, { kind?, componentIds? })`: the specification's rules on a tree;
 *   `checkLmx(source, options)`: both, every problem in source order, and the 100 KB limit.
 *   `LmxProblem { severity: 'error' | 'warning', rule, message, fix, line, column, offset }`;
 *   `LMX_RULES` names and explains each rule.
 * - The tag table `LMX_TAGS` (`LmxTagSpec`: content type inline/text/raw/none, placement, allowed
 *   children, attributes with types, ranges, enums, required and which take variables),
 *   `NAMESPACES_OF_KIND`, `LMX_MAX_BYTES`; the schemes a link and an image may use (`LINK_SCHEMES`,
 *   `IMAGE_SCHEMES`) and `schemeOf(url)`.
 * - `guardianFindings(document, { kind?, fallbacks? })`: Guardian's rules (GUARDIAN_RULES), the
 *   platform's check before publishing, which the emulator answers with and checkLmx runs too.
 * - `gmailClipProblem(htmlBytes)`: the warning for rendered HTML past Gmail's 102 KB clip.
 * - `decodeLmx(bytes)`: a file's bytes as source, or the problem that stops it being read
 *   (over 100 KB, not UTF-8); `boundedLmx(text)` the same for text (an API's answer). Every
 *   path that reads LMX goes through one of them, so none parses more than LMX_MAX_BYTES.
 * - `elementsOf`, `variablesOf`, `textOf`, `themeIdOf`, `componentIdsOf`: reading a tree without recursion.
 */

export { GMAIL_CLIP_BYTES, gmailClipProblem, kilobytes } from './clip.js';
export {
  dataVariablesIn,
  GUARDIAN_RULES,
  type GuardianFinding,
  type GuardianOptions,
  type GuardianRuleName,
  guardianFindings,
  guardianProblems,
  guardianReportOf,
} from './guardian.js';
export { type LmxAttribute, type LmxDocument, type LmxElement, type LmxNode, type LmxText, type LmxVariable, MAX_LMX_DEPTH, parseLmx } from './parse.js';
export { LineIndex, LMX_RULES, type LmxPosition, type LmxProblem, type LmxRule, type LmxSeverity, refusesBody } from './problems.js';
export { boundedLmx, decodeLmx, tooLargeProblem, utf8Length } from './source.js';
export {
  BLOCK_TAGS,
  IMAGE_SCHEMES,
  INLINE_TAGS,
  KNOWN_ICON_NAMES,
  LINK_SCHEMES,
  LMX_KINDS,
  LMX_MAX_BYTES,
  LMX_NAMESPACES,
  LMX_TAGS,
  type LmxAttributeSpec,
  type LmxAttributeType,
  type LmxContentType,
  type LmxKind,
  type LmxNamespace,
  type LmxPlacement,
  type LmxTagSpec,
  NAMESPACES_OF_KIND,
  schemeOf,
  TOP_LEVEL_TAGS,
} from './tags.js';
export { componentIdsOf, elementsOf, textOf, themeIdOf, variablesOf } from './tree.js';
export { checkLmx, type LmxCheckOptions, validateLmx } from './validate.js';
