/**
 * A workflow file's text (`workflow.yaml`) read as a workflow file, and the id its directory's
 * name ends in: what `content` reads from a tree and `workflow show --file`/`workflow test` read
 * from one directory, so both read it alike.
 */
import { basename } from 'node:path';
import { type Document, isMap, isPair, isScalar, LineCounter, parseDocument, visit, type YAMLError } from 'yaml';
import { LocalFileError } from '../../base/errors.js';
import { yamlFault, yamlValue } from '../../base/parse-faults.js';
import { type WorkflowFile, workflowFile } from './file.js';

/** The id a pulled directory's name ends in (`welcome--<id>`), or undefined for a new one (`welcome`). */
export function directoryId(path: string): string | undefined {
  const name = basename(path);
  const at = name.lastIndexOf('--');
  if (at < 0 || at + 2 === name.length) return undefined;
  try {
    return decodeURIComponent(name.slice(at + 2));
  } catch {
    // `--%E0%A4%A`: escapes that decode to no text, which a pull never writes.
    throw new LocalFileError(`${path}: the end of its name after -- is not an id that a pull writes`, {
      hint: 'rename the directory: keep the id a pull gave it, or drop everything from -- for a new workflow',
    });
  }
}

/** What is wrong with a workflow file's YAML, in words that quote none of it but the key a repeated one is. */
export interface YamlProblem {
  repeated: boolean;
  message: string;
  fix: string;
}

/**
 * A YAML error of a workflow file as a problem: a key given twice named by where it stands (a node
 * key, or a field inside its node), anything else by the parser's code alone.
 */
export function yamlProblem(document: Document.Parsed, error: YAMLError): YamlProblem {
  if (error.code !== 'DUPLICATE_KEY') return { repeated: false, message: yamlFault(error), fix: 'fix the YAML: indentation, quotes, a missing colon' };
  let path: string[] | undefined;
  let key: string | undefined;
  visit(document, {
    Pair(_, pair, ancestors) {
      if (!isScalar(pair.key) || pair.key.range?.[0] !== error.pos[0]) return undefined;
      key = String(pair.key.value);
      path = ancestors.filter(isPair).map((parent) => String(isScalar(parent.key) ? parent.key.value : '?'));
      return visit.BREAK;
    },
  });
  if (path === undefined || key === undefined) return { repeated: true, message: 'a key is used twice', fix: 'keep one of them' };
  if (path.length === 1 && path[0] === 'nodes')
    return { repeated: true, message: `the node key "${key}" is used twice`, fix: 'each node key names one node: rename one of them' };
  if (path.length === 2 && path[0] === 'nodes')
    return { repeated: true, message: `node "${path[1]}": the field "${key}" is given twice`, fix: `keep one ${key} in the node` };
  return { repeated: true, message: `${[...path, key].join('.')} is given twice`, fix: 'keep one of them' };
}

/** Where a problem of a workflow file stands: 1-based line and column, and the offset in the text. */
export interface TextPlace {
  line: number;
  column: number;
  offset: number;
}

/** One problem of a workflow file's text: its YAML (`yaml`, `key-once`) or its shape (`shape`), placed. */
export interface WorkflowTextProblem extends TextPlace {
  rule: 'yaml' | 'key-once' | 'shape';
  message: string;
  fix: string;
}

/** What a workflow file says of a node or a field (`key`, `field`), placed where it is written. */
export type Placer = (at: { key?: string; field?: string }) => TextPlace;

/**
 * A workflow file's text read: the file when its YAML and shape hold, a placer for the rules' later
 * problems, and every problem the text has. The one reader of workflow.yaml: `content check`
 * lists the problems, every other reader stops at the first (parseWorkflowFile).
 */
export interface WorkflowText {
  file?: WorkflowFile;
  place: Placer;
  problems: WorkflowTextProblem[];
}

const SHAPE_FIX = 'a workflow file has name, description, emoji, status, mailingList, root and nodes; each node a type and next';

export function readWorkflowText(text: string): WorkflowText {
  const counter = new LineCounter();
  const document = parseDocument(text, { uniqueKeys: true, lineCounter: counter, prettyErrors: false });
  const at = (offset: number): TextPlace => {
    const { line, col } = counter.linePos(offset);
    return { line, column: col, offset };
  };
  const place: Placer = (where) => at(keyOffset(document, where));
  // A file that does not parse may be anything (a key committed where the workflow goes): its problems quote none of it.
  if (document.errors.length > 0) {
    const problems = document.errors.map((error): WorkflowTextProblem => {
      const { repeated, message, fix } = yamlProblem(document, error);
      return { rule: repeated ? 'key-once' : 'yaml', message, fix, ...at(error.pos[0]) };
    });
    return { place, problems };
  }
  const read = yamlValue(document);
  if ('fault' in read) return { place, problems: [{ rule: 'yaml', message: read.fault, fix: 'write each node out, without YAML aliases', ...at(0) }] };
  const parsed = workflowFile.safeParse(read.value);
  if (parsed.success) return { file: parsed.data as WorkflowFile, place, problems: [] };
  const problems = parsed.error.issues.map((issue): WorkflowTextProblem => {
    // An unknown field is placed where it is written: at its own key when it stands at the top.
    const [top = issue.code === 'unrecognized_keys' ? issue.keys[0] : undefined, key] = issue.path.map(String);
    const message =
      issue.code === 'unrecognized_keys' ? `${issue.keys.join(', ')}: not a field of a workflow file` : `${issue.path.join('.')}: ${issue.message}`;
    return { rule: 'shape', message, fix: SHAPE_FIX, ...place(top === 'nodes' && key !== undefined ? { key } : { field: top }) };
  });
  return { place, problems };
}

/** Where a node's key (or else a top-level field) is written, 0 for the top. */
function keyOffset(document: Document, where: { key?: string; field?: string }): number {
  const nodes = document.get('nodes', true);
  const pairs = where.key !== undefined ? (isMap(nodes) ? nodes.items : []) : isMap(document.contents) ? document.contents.items : [];
  const wanted = where.key ?? where.field;
  if (wanted === undefined) return 0;
  const pair = pairs.find((item) => isScalar(item.key) && item.key.value === wanted);
  return pair !== undefined && isScalar(pair.key) ? (pair.key.range?.[0] ?? 0) : 0;
}

/**
 * The workflow files parsed lately, by their text: a pull, diff or push reads each for the audience's
 * rules (what the workflows name) and again for the workflows themselves, and parsing the YAML is
 * most of what reading them costs. Each reader gets a copy of its own to change.
 */
const parsedTexts = new Map<string, WorkflowFile>();
const KEPT_PARSES = 256;

/** A workflow file's text, parsed and its shape checked; an error names the file, the line and column, and its first problem. */
export function parseWorkflowFile(file: string, text: string): WorkflowFile {
  const kept = parsedTexts.get(text);
  if (kept !== undefined) return structuredClone(kept);
  const read = readWorkflowText(text);
  if (read.file !== undefined) {
    if (parsedTexts.size >= KEPT_PARSES) parsedTexts.delete(parsedTexts.keys().next().value!);
    parsedTexts.set(text, structuredClone(read.file));
    return read.file;
  }
  const first = read.problems[0]!;
  throw new LocalFileError(`${file}:${first.line}:${first.column}: ${first.message}`, { hint: first.fix });
}
