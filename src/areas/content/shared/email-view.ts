/**
 * An LMX file made into the HTML email it is the body of, as `content render` prints it and
 * `content preview` shows it: checked, its components and theme taken from the tree it is in, its
 * variables filled from sample values.
 */
import { checkLmx, gmailClipProblem, type LmxDocument, type LmxKind, themeIdOf } from '../../../lmx/index.js';
import { type LmxValues, type RenderedEmail, renderLmx } from '../../../lmx/render/index.js';
import { countOf } from '../../../render/numbers.js';
import type { CheckProblem } from './check.js';
import { type LanguageJudge, type QaRules, qaCheckProblems } from './check-qa.js';
import type { EnvValues } from './env-values.js';
import { placeOf } from './lmx-files.js';
import { componentsOf, type MessageFields, messageFieldsOf, recordOfFile, themesOf } from './tree.js';

/** A theme to draw with, and where it came from (for notes): `the tree's "Ocean"`, `theme.json`. */
export interface ChosenTheme {
  styles: Record<string, unknown>;
  label: string;
}

export interface EmailRequest {
  file: string;
  source: string;
  /** The kind the tree or --kind says; undefined leaves variables' namespaces unchecked. */
  kind?: LmxKind;
  values?: LmxValues;
  /** Overrides the theme the email's `<Style themeId>` names. */
  theme?: ChosenTheme;
  /** Components the tree lacks, fetched from the account by the caller that can. */
  extraComponents?: ReadonlyMap<string, LmxDocument>;
  /** The rules file's say on the qa findings (off, raised, allowed for the email's record); the default severities without it. */
  rules?: QaRules;
}

export interface EmailView extends RenderedEmail {
  /** The specification's problems, and what a recipient would meet (the qa rules' warnings). */
  problems: CheckProblem[];
  /** The size of the HTML, which Gmail clips past 102 KB. */
  htmlBytes: number;
  subject?: string;
  /** The theme drawn with, by name, or undefined for the default theme. */
  themeLabel?: string;
  /** The `<Style themeId>` the tree does not hold, so the default theme was used. */
  unknownThemeId?: string;
}

/** What a file's place in a tree tells of it: its components, themes and message fields. */
export interface TreeContext {
  components: Awaited<ReturnType<typeof componentsOf>>;
  themes: Awaited<ReturnType<typeof themesOf>>;
  fields: MessageFields;
  /** The message's languageCode judged against a text, where its fields file is there to say it. */
  language?: LanguageJudge;
}

/** A tree's components and themes, by the tree's root, for drawing several of its emails from one read. */
export type TreeCache = Map<string | undefined, Promise<Omit<TreeContext, 'fields'>>>;

/**
 * What a file's place in a tree tells of it, read once (or once for all files that share `cache`,
 * which are for one environment), without holding the process; its components and fields filled
 * with an environment's values when given.
 */
export async function treeContext(file: string, cache: TreeCache = new Map(), values?: EnvValues): Promise<TreeContext> {
  const { root } = placeOf(file);
  let shared = cache.get(root);
  if (shared === undefined) {
    shared = Promise.all([componentsOf(root, values), themesOf(root)]).then(([components, themes]) => ({ components, themes }));
    cache.set(root, shared);
  }
  // Both awaited at once: a tree whose components cannot be read refuses here, never as a rejection no one awaits.
  const [read, fields] = await Promise.all([shared, messageFieldsOf(file, values)]);
  return { ...read, fields, ...(fields.read ? { language: await languageJudge(fields.texts.languageCode) } : {}) };
}

/** The judge of a message's language, its detector loaded only for an email whose fields say one (or none). */
async function languageJudge(code: string | undefined): Promise<LanguageJudge> {
  const { languageFindings } = await import('../../../lmx/qa/language.js');
  return (text) => languageFindings(code, text, 'languageCode');
}

/** The file checked and rendered. */
export function viewEmail(request: EmailRequest, context: TreeContext): EmailView {
  const components = new Map([...context.components, ...(request.extraComponents ?? [])]);
  const { document, problems } = checkLmx(request.source, { kind: request.kind, componentIds: new Set(components.keys()) });
  const themeId = themeIdOf(document);
  const treeTheme = themeId === undefined ? undefined : context.themes.get(themeId);
  const theme = request.theme ?? (treeTheme === undefined ? undefined : { styles: treeTheme.styles, label: treeTheme.name });
  const rendered = renderLmx(document, {
    theme: theme?.styles,
    values: request.values,
    fallbacks: context.fields.fallbacks,
    components,
    componentBody: request.kind === 'component',
    subject: context.fields.subject,
    previewText: context.fields.previewText,
  });
  const htmlBytes = Buffer.byteLength(rendered.html);
  const record = request.rules === undefined ? undefined : recordOfFile(request.file);
  const ruling = request.rules === undefined ? undefined : { expected: request.rules, ...(record === undefined ? {} : { record }) };
  const qa =
    request.kind === 'component'
      ? []
      : qaCheckProblems({ document, subject: context.fields.subject ?? '', theme: theme?.styles, htmlBytes, components, language: context.language }, ruling);
  return {
    ...rendered,
    problems: [...problems, ...qa].sort((a, b) => a.offset - b.offset),
    htmlBytes,
    subject: context.fields.subject,
    themeLabel: theme?.label,
    unknownThemeId: request.theme === undefined && themeId !== undefined && treeTheme === undefined ? themeId : undefined,
  };
}

/**
 * The notes a rendered email leaves for the person: what it could not fill, find or use. The
 * preview page (`forPage`) has its own form for values and its own check panel.
 */
export function renderNotes(view: EmailView, file: string, forPage = false): string[] {
  const notes: string[] = [];
  if (view.missing.length > 0)
    notes.push(
      `No value for ${view.missing.join(', ')}: shown as written. ${forPage ? 'Give one under Sample values.' : 'Give values with --data <json file>.'}`,
    );
  const component = (id: string) => `Component ${id === '' ? 'without a componentId' : id}`;
  for (const id of view.missingComponents) notes.push(`${component(id)} is not in the tree${id === '' ? '' : ' (nor the account)'}: shown as a placeholder.`);
  for (const id of view.nestedComponents) notes.push(`${component(id)} stands in a component, and components do not nest: shown as a placeholder.`);
  if (view.unknownThemeId !== undefined)
    notes.push(`Theme ${view.unknownThemeId} (its <Style themeId>) is not in the tree: drawn with the default theme. Name one with --theme.`);
  for (const dropped of view.dropped) notes.push(`Left out ${dropped.where} "${dropped.value}": ${dropped.reason}.`);
  // An address that is only a variable with no value is covered by the note above.
  for (const inert of view.inert.filter((entry) => !view.missing.some((variable) => entry.value.includes(variable))))
    notes.push(`<${inert.tag}> ${inert.attribute} "${inert.value}" ${inert.reason}.`);
  const clip = gmailClipProblem(view.htmlBytes);
  if (clip !== undefined && !forPage) notes.push(`${clip.message[0]!.toUpperCase()}${clip.message.slice(1)}. To fix: ${clip.fix}.`);
  const errors = view.problems.filter((problem) => problem.severity === 'error');
  if (errors.length > 0 && !forPage)
    notes.push(`${file} has ${countOf(errors.length, 'error')} (see \`loopsctl content check ${file}\`): the preview shows what could be read.`);
  return notes;
}
