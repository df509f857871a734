/**
 * A workflow file's text (`workflow.yaml`) read as a workflow file, and the id its directory's
 * name ends in: what `content` reads from a tree and `workflow show --file`/`workflow test` read
 * from one directory, so both read it alike.
 */
import { basename } from 'node:path';
import { type Document, isPair, isScalar, parseDocument, visit, type YAMLError } from 'yaml';
import { LocalFileError } from '../../base/errors.js';
import { positionAt, yamlFault, yamlValue } from '../../base/parse-faults.js';
import { workflowFile, type WorkflowFile } from './file.js';

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

/** A workflow file's text, parsed and its shape checked; an error names the file and, for YAML, the line. */
export function parseWorkflowFile(file: string, text: string): WorkflowFile {
  const document = parseDocument(text, { uniqueKeys: true, prettyErrors: false });
  if (document.errors.length > 0) {
    const first = document.errors[0]!;
    const { line, column } = positionAt(text, first.pos[0]);
    const { message, fix } = yamlProblem(document, first);
    throw new LocalFileError(`${file}:${line}:${column}: ${message}`, { hint: fix });
  }
  const read = yamlValue(document);
  if ('fault' in read) throw new LocalFileError(`${file}: ${read.fault}`, { hint: 'write each node out, without YAML aliases' });
  const result = workflowFile.safeParse(read.value);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    const message = issue.code === 'unrecognized_keys' ? `${issue.keys.join(', ')}: not a field of a workflow file` : issue.message;
    throw new LocalFileError(`${file}: ${where}${message}`, {
      hint: 'a workflow file has name, description, emoji, status, mailingList, root and nodes, each node its type and next',
    });
  }
  return result.data as WorkflowFile;
}
