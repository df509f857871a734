/**
 * `content convert`: MJML, React Email and HTML emails made records of a content tree, the files
 * laid out as `content pull` writes them, each checked as `content check` checks it, with the list
 * of what could not be carried.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { InterruptedError, LocalFileError, LoopsctlError, RejectedError, UsageError, withDetails } from '../../../base/errors.js';
import { ExitCode } from '../../../base/exit-codes.js';
import { treeEntryKind } from '../../../base/tree-files.js';
import { writeTreeFiles } from '../../../base/tree-writes.js';
import { compareColours } from '../../../convert/contrast.js';
import { convertComponent, convertDocument, type SourceDocument } from '../../../convert/document.js';
import { measureFidelity } from '../../../convert/fidelity.js';
import { type ImageCarrier, notUploaded, uploadImages } from '../../../convert/images.js';
import { compareLayout } from '../../../convert/layout/layout-compare.js';
import { writeLmx } from '../../../convert/lmx-out.js';
import {
  CONVERT_KINDS,
  type Converted,
  type ConvertKind,
  Findings,
  MAX_SOURCE_DEPTH,
  nestedTooDeep,
  type Place,
  type Remediation,
  type SourceNode,
} from '../../../convert/model.js';
import { renderConversion } from '../../../convert/report.js';
import { includeKey, moduleReaderOf, readSource, type SourceFile, type Sources, sharedPartials, sourcesOf } from '../../../convert/sources/files.js';
import { readHtml } from '../../../convert/sources/html-source.js';
import { type MjmlOptions, readMjml, readMjmlPartial } from '../../../convert/sources/mjml-source.js';
import type { ModuleReader } from '../../../convert/sources/react-modules.js';
import { readReact } from '../../../convert/sources/react-source.js';
import { type Handler, handler, type Uses } from '../../../core/capabilities.js';
import { type LmxKind, parseLmx } from '../../../lmx/index.js';
import { slugOf } from '../../../platform/words.js';
import { countOf } from '../../../render/numbers.js';
import { checkSource, type TreeComponents } from '../shared/check.js';
import { jsonFile } from '../shared/files.js';
import { DEFAULT_DIRECTORY } from '../shared/lmx-files.js';
import { type GivenFields, messageFields, recordName } from './fields.js';
import { workflowDirectory, workflowFiles } from './workflow.js';

interface ConvertOptions {
  kind?: string;
  upload?: boolean;
  out?: string;
  workflow?: string;
  strict?: boolean;
  force?: boolean;
  subject?: string;
  allowPrivateLinks?: boolean;
  previewProps?: boolean;
}

/** Where each kind's record lives in a tree, and its files' names. */
function layoutOf(kind: ConvertKind, slug: string, workflow: (slug: string) => string): { path: string; meta?: string; message: string } {
  switch (kind) {
    case 'transactional':
      return { path: `transactional/${slug}`, meta: 'transactional.json', message: 'draft' };
    case 'campaign':
      return { path: `campaigns/${slug}`, meta: 'campaign.json', message: 'email' };
    case 'workflow':
      return { path: `workflows/${workflow(slug)}/emails/${slug}`, message: 'email' };
  }
}

/** How each format is read: MJML's includes, and a React template's modules and whether its preview props are its content. */
interface ReadOptions {
  mjml: MjmlOptions;
  modules: ModuleReader;
  previewProps: boolean;
}

function readFormat(source: SourceFile, findings: Findings, { mjml, modules, previewProps }: ReadOptions): SourceDocument {
  switch (source.format) {
    case 'html':
      return readHtml(source.text, source.file, findings);
    case 'react':
      return readReact(source.text, source.file, findings, modules, previewProps);
    case 'mjml':
      return readMjml(source.text, source.file, findings, mjml);
  }
}

/** A source read, its nesting bounded (measured without recursion), so that a hostile depth is refused, not a crash. */
function readDocument(source: SourceFile, findings: Findings, options: ReadOptions): SourceDocument {
  let document: SourceDocument;
  try {
    document = readFormat(source, findings, options);
  } catch (error) {
    // A parser that walks by recursion (Babel's, a reader's) meets its end on a hostile depth before the bound below can.
    if (error instanceof RangeError) throw nestedTooDeep(source.file);
    throw error;
  }
  const pending: [SourceNode, number][] = [[document.body, 0]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    if (depth > MAX_SOURCE_DEPTH) throw nestedTooDeep(node.at);
    if (node.type === 'element') for (const child of node.children) pending.push([child, depth + 1]);
  }
  return document;
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

/** What one run shares: the sources, the target, the components made so far, the uploads done. */
interface Run {
  kind: ConvertKind;
  root: string;
  workflow?: string;
  sources: Sources;
  mjml: MjmlOptions;
  /** --preview-props: a React template's `PreviewProps` lists are its content. */
  previewProps: boolean;
  components: Map<string, TreeComponents extends ReadonlyMap<string, infer V> ? V : never>;
  /** With --upload: downloads and uploads an image; and the addresses of those uploaded, by the path or address the source names. */
  upload?: ImageCarrier;
  uploaded: Map<string, string>;
  /** How wide each image uploaded is, in pixels, by the path or address the source names. */
  widths: Map<string, number>;
  /** The fields given each email from outside its source, by the email's path: --subject, or its send's (`migrate report` finds them). */
  given: ReadonlyMap<string, GivenFields>;
}

export type Made = { converted: Converted; files: Map<string, string> };

/** A partial several emails include, made a component. */
function componentRecord(run: Run, key: string, id: string, users: string[]): Made {
  const { sources, root } = run;
  const findings = new Findings();
  const nodes = readMjmlPartial(readSource(sources.root, key), join(sources.shown, key), findings, { ...run.mjml, components: undefined });
  const lmx = convertComponent(nodes, run.kind, findings);
  const recordPath = `components/${id}`;
  run.components.set(id, { path: recordPath, variables: [], document: parseLmx(lmx).document });
  findings.remediation.push(...checkProblems(join(root, recordPath, 'component.lmx'), lmx, 'component', run.components));
  findings.add(
    { file: join(sources.shown, key), line: 1, column: 1 },
    `the partial ${key}, included by ${users.join(', ')}`,
    'approximated',
    `made the component ${recordPath}, embedded as <Component componentId="${id}" />`,
    `push the components first (\`loopsctl content push --only components\`): the next push of the emails writes the id the account gave it in place of "${id}"`,
  );
  const files = new Map([
    ['component.json', jsonFile({ name: key.replace(/\.mjml$/, '') })],
    ['component.lmx', lmx],
  ]);
  const converted = {
    source: join(sources.shown, key),
    kind: 'component' as const,
    path: recordPath,
    files: [...files.keys()],
    variables: [...findings.variables.values()],
    remediation: findings.remediation,
  };
  return { converted, files };
}

/** Where an email's record goes. */
function emailLayout(run: Run, source: SourceFile) {
  const directory = (slug: string) => workflowDirectory(run.root, run.workflow, slugOf, slug);
  return layoutOf(run.kind, slugOf(source.path.replace(/\.[^.]+$/, '').replaceAll('/', '-')), directory);
}

/** An email read and converted: what may refuse it, done for every email before anything is uploaded. */
interface ReadEmail {
  source: SourceFile;
  findings: Findings;
  document: SourceDocument;
  email: ReturnType<typeof convertDocument>;
}

function readEmail(run: Run, source: SourceFile): ReadEmail {
  const findings = new Findings();
  const document = readDocument(source, findings, { mjml: run.mjml, modules: moduleReaderOf(run.sources), previewProps: run.previewProps });
  return { source, findings, document, email: convertDocument(document, run.kind, findings) };
}

/** An email made a record: its images uploaded with --upload, checked. */
async function emailRecord(run: Run, { source, findings, document, email }: ReadEmail): Promise<Made> {
  const { kind, root } = run;
  if (run.upload !== undefined)
    await uploadImages(email.blocks, { file: source.file, line: 1, column: 1 }, run.sources, findings, run.upload, run.uploaded, run.widths);
  const lmx = writeLmx(email.style, email.blocks);
  const layout = emailLayout(run, source);
  const files = new Map<string, string>();
  const given = run.given.get(source.path) ?? {};
  if (layout.meta !== undefined) files.set(layout.meta, jsonFile({ name: recordName(given.subject ?? document.subject, source, findings) }));
  // The detector loads only here, where a record is written.
  const { languageOf } = await import('../../../lmx/qa/language.js');
  const fields = messageFields(document, given, source, kind, findings, languageOf);
  if (fields.subject === undefined) {
    const named = (given.subject ?? document.subject)?.trim();
    findings.add(
      { file: source.file, line: 1, column: 1 },
      'no subject',
      'listed',
      named
        ? `the record has no subject: the source's, "${named}", holds nothing once its template's tags are dropped (listed), and no --subject or send gave one`
        : `the record has no subject: the source names none (a <title>, <mj-title>, a React Email <title> or exported subject), and no --subject or send gave one`,
      `write the subject in ${layout.path}/${layout.message}.json before pushing, or convert it again with --subject`,
    );
  }
  files.set(`${layout.message}.json`, jsonFile(fields));
  files.set(`${layout.message}.lmx`, lmx);
  const placed = compareLayout(document.body, email.style, email.blocks, findings);
  const colours = compareColours(email.blocks, email.style, findings);
  const fidelity = measureFidelity(document, lmx, findings, run.uploaded, { ...placed, colours });
  findings.remediation.push(...checkProblems(join(root, layout.path, `${layout.message}.lmx`), lmx, kind, run.components));
  const converted = {
    source: source.file,
    kind,
    path: layout.path,
    subject: fields.subject as string | undefined,
    files: [...files.keys()],
    variables: [...findings.variables.values()],
    remediation: findings.remediation,
    fidelity,
  };
  return { converted, files };
}

/**
 * --upload's carrier: images uploaded as `uploads create` does, remote ones downloaded first through
 * the fetcher for outside addresses (never the key; a loopback, private or reserved address, or a
 * redirect to one, refused and listed unless --allow-private-links), closed when the run ends.
 */
async function imageCarrier(
  context: Uses<'client' | 'outside' | 'globals'>,
  allowPrivate: boolean,
): Promise<{ carrier: ImageCarrier; close(): Promise<void> }> {
  const [{ uploadImage }, { fetchOutside }, { Fetcher }] = await Promise.all([
    import('../../uploads/commands.js'),
    import('../../../api/outside.js'),
    import('../../../api/fetcher.js'),
  ]);
  const settings = context.outsideSettings();
  const fetcher = new Fetcher({ ...settings, allowPrivate });
  const carrier: ImageCarrier = {
    upload: async (bytes, contentType) => {
      try {
        return { url: (await uploadImage(context, bytes, contentType)).finalUrl };
      } catch (error) {
        // A refusal of this image is listed and the run goes on; a key refused, a quota used up or the network stop it.
        if (!(error instanceof RejectedError)) throw error;
        return `the API refused it: ${error.message}`;
      }
    },
    download: async (url, limit) => {
      try {
        return await fetchOutside({ url, target: 'the image’s host', refusedHint: '', ...settings }, limit, fetcher);
      } catch (error) {
        // Each image that cannot be had is listed, the run goes on; Ctrl-C still stops it.
        if (error instanceof TypeError) return 'not an address that can be read';
        if (error instanceof InterruptedError || !(error instanceof LoopsctlError)) throw error;
        return error.message;
      }
    },
  };
  return { carrier, close: () => fetcher.close() };
}

/**
 * Refuses, before anything is written, records that would land where another is (unless `force`)
 * or where another of the same run goes (`welcome.tsx` and `welcome.html` are both `welcome`).
 */
export function refuseOverwrites(root: string, planned: readonly { path: string; source: string }[], force = false): void {
  const first = new Map<string, string>();
  for (const { path, source } of planned) {
    const other = first.get(path);
    if (other !== undefined)
      throw new LocalFileError(`${other} and ${source} would both be ${join(root, path)}: nothing was written`, {
        hint: 'rename one of them, or convert them one at a time into different directories (--out)',
      });
    first.set(path, source);
  }
  const existing = force
    ? []
    : [...first.keys()].filter((recordPath) => treeEntryKind(root, recordPath) !== undefined).map((recordPath) => join(root, recordPath));
  if (existing.length > 0)
    throw new LocalFileError(`${existing.join(', ')} already ${existing.length === 1 ? 'exists' : 'exist'}: nothing was written`, {
      hint: 'write into another directory (--out), or replace them with --force',
    });
}

/** The records written into the tree: the directory named made as named; below it, nothing written through a link. */
export function writeRecords(root: string, records: readonly Made[]): void {
  if (records.length > 0) mkdirSync(root, { recursive: true });
  for (const { converted, files } of records) writeTreeFiles(root, converted.path, files);
}

/**
 * The records the sources make, converted and checked but not written: what `convert` writes, and
 * what `migrate report` counts. Nothing is uploaded without a carrier.
 */
export async function convertSources(
  sources: Sources,
  target: {
    kind: ConvertKind;
    root: string;
    workflow?: string;
    upload?: ImageCarrier;
    force?: boolean;
    given?: ReadonlyMap<string, GivenFields>;
    previewProps?: boolean;
  },
): Promise<Made[]> {
  const { root, kind } = target;
  const { partials, shared } = sharedPartials(sources);
  const componentIds = new Map([...shared.keys()].map((key) => [key, slugOf(key.replace(/\.mjml$/, '').replaceAll('/', '-'))]));
  const emails = sources.files.filter((file) => !partials.has(file.path));
  if (emails.length === 0)
    throw new LocalFileError(`${sources.shown}: no email to convert: each MJML file is a partial another includes`, {
      hint: 'name the email that includes them, or the directory that holds it; two partials that include each other are a circle MJML refuses too',
    });
  const keyOf = (includePath: string, from: Place) => includeKey(sources, includePath, from);
  const run: Run = {
    kind,
    root,
    workflow: target.workflow,
    sources,
    mjml: {
      readInclude: (includePath, from) => {
        const key = keyOf(includePath, from);
        try {
          return { file: join(sources.shown, key), source: readSource(sources.root, key) };
        } catch (error) {
          // A partial that is not there, too large or a link: said at the include that names it.
          if (!(error instanceof LocalFileError)) throw error;
          throw withDetails(error, { message: `${from.file}:${from.line}:${from.column}: <mj-include path="${includePath}">: ${error.message}` });
        }
      },
      components: new Map([...componentIds].map(([key, id]) => [key, { id }])),
      keyOf,
    },
    components: new Map(),
    upload: target.upload,
    uploaded: new Map(),
    widths: new Map(),
    given: target.given ?? new Map(),
    previewProps: target.previewProps === true,
  };
  // Content is never overwritten unasked: nothing is written, nor uploaded, while a record is in the way.
  refuseOverwrites(
    root,
    [
      ...[...componentIds].map(([key, id]) => ({ path: `components/${id}`, source: join(sources.shown, key) })),
      ...emails.map((source) => ({ path: emailLayout(run, source).path, source: source.file })),
    ],
    target.force,
  );
  const records: Made[] = [...componentIds].map(([key, id]) => componentRecord(run, key, id, shared.get(key)!));
  // Every email is read before the first image is uploaded: one that is refused stops the run with nothing sent.
  const read = emails.map((source) => readEmail(run, source));
  const made: Made[] = [];
  for (const email of read) made.push(await emailRecord(run, email));
  const workflows =
    kind === 'workflow'
      ? workflowFiles(
          root,
          made.map((record) => record.converted),
          (directory) => target.workflow ?? directory.slice('workflows/'.length),
        )
      : [];
  return [...records, ...made, ...workflows];
}

export const convert: Handler<[string], ConvertOptions> = handler(['out', 'files', 'client', 'outside', 'globals'], async (context, [path], options) => {
  const kind = (options.kind ?? 'transactional') as ConvertKind;
  if (!(CONVERT_KINDS as readonly string[]).includes(kind))
    throw new UsageError(`--kind: unknown kind "${kind}"`, { hint: `choose from ${CONVERT_KINDS.join(', ')}` });
  // Under `loopsctl mcp --root`, the invoker has placed both paths under its root (they are declared files).
  const root = options.out ?? DEFAULT_DIRECTORY;
  const sources = sourcesOf(path);
  const given = new Map<string, GivenFields>();
  if (options.subject !== undefined) {
    const { partials } = sharedPartials(sources);
    const emails = sources.files.filter((file) => !partials.has(file.path));
    if (emails.length !== 1)
      throw new UsageError(`--subject gives one email its subject, and ${path} holds ${countOf(emails.length, 'email')}`, {
        hint: 'convert each email alone with its --subject, or write the subjects in their draft.json files after converting',
      });
    given.set(emails[0]!.path, { subject: options.subject });
  }
  const upload = options.upload ? await imageCarrier(context, options.allowPrivateLinks === true) : undefined;
  const records = await convertSources(sources, {
    kind,
    root,
    workflow: options.workflow,
    upload: upload?.carrier,
    force: options.force,
    given,
    previewProps: options.previewProps,
  }).finally(() => upload?.close());
  writeRecords(root, records);
  const converted = records.map((record) => record.converted);
  const { out } = context;
  if (out.json) await out.writeJson({ directory: root, records: converted });
  else {
    // Wrapped to the terminal; a pipe or a file gets each line whole, for grep.
    await out.write(renderConversion(root, converted, out.tty ? out.columns : Number.POSITIVE_INFINITY));
    out.note(
      `Converted ${countOf(converted.length, 'record')} into ${root}: ${countOf(
        converted.reduce((sum, record) => sum + record.remediation.length, 0),
        'thing',
      )} to look at.`,
    );
  }
  // An image --upload was asked to carry and could not is a part of the run that failed, --strict or not.
  const missed = converted.reduce((sum, record) => sum + record.remediation.filter(notUploaded).length, 0);
  if (missed > 0) out.note(`--upload: ${countOf(missed, 'image')} could not be uploaded; each is listed with why.`);
  const listed = converted.reduce((sum, record) => sum + record.remediation.length, 0);
  if (options.strict && listed > 0) out.note(`--strict: ${countOf(listed, 'thing')} could not be carried as ${listed === 1 ? 'it was' : 'they were'}.`);
  return missed > 0 || (options.strict && listed > 0) ? ExitCode.mismatch : ExitCode.ok;
});
