/**
 * `content convert`: MJML, React Email and HTML emails made records of a content tree, the files
 * laid out as `content pull` writes them, each checked as `content check` checks it, with the list
 * of what could not be carried.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { LocalFileError, UsageError } from '../../../base/errors.js';
import { ExitCode } from '../../../base/exit-codes.js';
import { treeEntryKind, writeTreeFile } from '../../../base/tree-files.js';
import { handler, type Handler } from '../../../core/capabilities.js';
import { parseLmx, type LmxKind } from '../../../lmx/index.js';
import { countOf } from '../../../render/numbers.js';
import { checkSource, type TreeComponents } from '../check.js';
import { jsonFile, slugOf } from '../files.js';
import { DEFAULT_DIRECTORY } from '../lmx-files.js';
import { convertComponent, convertDocument, type SourceDocument } from './document.js';
import { readHtml } from './html-source.js';
import { readMjml, readMjmlPartial, type MjmlOptions } from './mjml-source.js';
import { CONVERT_KINDS, Findings, type Converted, type ConvertKind, type Remediation } from './model.js';
import { readReact } from './react-source.js';
import { renderConversion } from './report.js';
import { includeKey, readSource, sharedPartials, sourcesOf, type SourceFile } from './sources.js';
import { templatePieces } from './variables.js';

interface ConvertOptions {
  kind?: string;
  out?: string;
  workflow?: string;
  strict?: boolean;
  force?: boolean;
}

/** Where each kind's record lives in a tree, and its files' names. */
function layoutOf(kind: ConvertKind, slug: string, workflow: string | undefined): { path: string; meta?: string; message: string } {
  switch (kind) {
    case 'transactional':
      return { path: `transactional/${slug}`, meta: 'transactional.json', message: 'draft' };
    case 'campaign':
      return { path: `campaigns/${slug}`, meta: 'campaign.json', message: 'email' };
    case 'workflow':
      return { path: `workflows/${slugOf(workflow ?? slug)}/emails/${slug}`, message: 'email' };
  }
}

function readDocument(source: SourceFile, findings: Findings, mjml: MjmlOptions): SourceDocument {
  switch (source.format) {
    case 'html':
      return readHtml(source.text, source.file, findings);
    case 'react':
      return readReact(source.text, source.file, findings);
    case 'mjml':
      return readMjml(source.text, source.file, findings, mjml);
  }
}

/** A subject or preview text with its template variables made LMX's. */
function fieldText(value: string | undefined, source: SourceFile, kind: ConvertKind, findings: Findings): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const at = { file: source.file, line: 1, column: 1 };
  return templatePieces(value.trim(), at, kind, findings)
    .map((piece) => ('text' in piece ? piece.text : `{${piece.variable}}`))
    .join('');
}

/** The message's fields: subject, preview text, and the fallbacks a template's defaults gave. */
function messageFields(document: SourceDocument, source: SourceFile, kind: ConvertKind, findings: Findings): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  const subject = fieldText(document.subject, source, kind, findings);
  if (subject !== undefined) fields.subject = subject;
  const previewText = fieldText(document.previewText, source, kind, findings);
  if (previewText !== undefined) fields.previewText = previewText;
  const names = { contact: 'contactPropertiesFallbacks', event: 'eventPropertiesFallbacks', data: 'dataVariablesFallbacks' } as const;
  for (const [namespace, values] of Object.entries(findings.fallbacks))
    if (Object.keys(values).length > 0) fields[names[namespace as keyof typeof names]] = values;
  return fields;
}

/** The problems `content check` finds in the LMX, listed with the rest. */
function checkProblems(lmxFile: string, lmx: string, kind: LmxKind, components: TreeComponents): Remediation[] {
  const check = checkSource(lmxFile, lmx, kind, components);
  return [...check.errors, ...check.warnings].map((problem) => ({
    file: lmxFile,
    line: problem.line,
    column: problem.column,
    construct: `content check: ${problem.rule}`,
    outcome: 'listed' as const,
    done: `${problem.severity}: ${problem.message}`,
    todo: problem.fix,
  }));
}

export const convert: Handler<[string], ConvertOptions> = handler(['out', 'files'], async (context, [path], options) => {
  const kind = (options.kind ?? 'transactional') as ConvertKind;
  if (!(CONVERT_KINDS as readonly string[]).includes(kind))
    throw new UsageError(`--kind: unknown kind "${kind}"`, { hint: `choose from ${CONVERT_KINDS.join(', ')}` });
  const root = options.out ?? DEFAULT_DIRECTORY;
  const sources = sourcesOf(path);
  const { partials, shared } = sharedPartials(sources);
  const componentIds = new Map([...shared.keys()].map((key) => [key, { id: slugOf(key.replace(/\.mjml$/, '').replaceAll('/', '-')) }]));
  const mjml: MjmlOptions = {
    readInclude: (includePath, from) => {
      const key = includeKey(sources, includePath, from);
      return { file: join(sources.shown, key), source: readSource(sources.root, key) };
    },
    components: componentIds,
    keyOf: (includePath, from) => includeKey(sources, includePath, from),
  };
  const records: { converted: Converted; files: Map<string, string> }[] = [];
  const components = new Map<string, TreeComponents extends ReadonlyMap<string, infer V> ? V : never>();
  for (const [key, { id }] of componentIds) {
    const findings = new Findings();
    const lmx = convertComponent(
      readMjmlPartial(readSource(sources.root, key), join(sources.shown, key), findings, { ...mjml, components: undefined }),
      kind,
      findings,
    );
    const recordPath = `components/${id}`;
    components.set(id, { path: recordPath, variables: [], document: parseLmx(lmx).document });
    findings.remediation.push(...checkProblems(join(root, recordPath, 'component.lmx'), lmx, 'component', components));
    findings.add(
      { file: join(sources.shown, key), line: 1, column: 1 },
      `the partial ${key}, included by ${shared.get(key)!.join(', ')}`,
      'approximated',
      `made the component ${recordPath}, embedded as <Component componentId="${id}" />`,
      `push the components first (\`loopsctl content push --only components\`), then write the id the account gives it in place of "${id}"`,
    );
    const files = new Map([
      ['component.json', jsonFile({ name: key.replace(/\.mjml$/, '') })],
      ['component.lmx', lmx],
    ]);
    records.push({
      converted: {
        source: join(sources.shown, key),
        kind: 'component',
        path: recordPath,
        files: [...files.keys()],
        variables: [...findings.variables.values()],
        remediation: findings.remediation,
      },
      files,
    });
  }
  for (const source of sources.files.filter((file) => !partials.has(file.path))) {
    const findings = new Findings();
    const document = readDocument(source, findings, mjml);
    const email = convertDocument(document, kind, findings);
    const slug = slugOf(source.path.replace(/\.[^.]+$/, '').replaceAll('/', '-'));
    const layout = layoutOf(kind, slug, options.workflow);
    const files = new Map<string, string>();
    if (layout.meta !== undefined) files.set(layout.meta, jsonFile({ name: document.subject ?? source.path.replace(/\.[^.]+$/, '') }));
    files.set(`${layout.message}.json`, jsonFile(messageFields(document, source, kind, findings)));
    files.set(`${layout.message}.lmx`, email.lmx);
    findings.remediation.push(...checkProblems(join(root, layout.path, `${layout.message}.lmx`), email.lmx, kind, components));
    records.push({
      converted: {
        source: source.file,
        kind,
        path: layout.path,
        files: [...files.keys()],
        variables: [...findings.variables.values()],
        remediation: findings.remediation,
      },
      files,
    });
  }
  // Content is never overwritten unasked: nothing is written while a record is in the way.
  const existing = records.filter(({ converted }) => treeEntryKind(root, converted.path) !== undefined).map(({ converted }) => join(root, converted.path));
  if (existing.length > 0 && !options.force)
    throw new LocalFileError(`${existing.join(', ')} already ${existing.length === 1 ? 'exists' : 'exist'}: nothing was written`, {
      hint: 'convert into another directory (--out), or replace them with --force',
    });
  // The directory named is made as named; below it, nothing is written through a link.
  if (records.length > 0) mkdirSync(root, { recursive: true });
  for (const { converted, files } of records) for (const [name, text] of files) writeTreeFile(root, `${converted.path}/${name}`, text);
  const converted = records.map((record) => record.converted);
  const { out } = context;
  if (out.json) await out.writeJson({ directory: root, records: converted });
  else {
    await out.write(renderConversion(root, converted));
    const listed = converted.reduce((sum, record) => sum + record.remediation.length, 0);
    out.note(`Converted ${countOf(converted.length, 'record')} into ${root}: ${countOf(listed, 'thing')} to look at.`);
  }
  return options.strict && converted.some((record) => record.remediation.length > 0) ? ExitCode.mismatch : ExitCode.ok;
});
