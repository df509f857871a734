/**
 * MJML read as MJML reads it: with htmlparser2, as MJML's own reader (mjml-parser-xml) does, so
 * white space or a line break before a tag's `>` (as Prettier lays MJML out), CRLF and comments
 * anywhere read as MJML reads them. The content of `<mj-text>`, `<mj-button>`, `<mj-table>`,
 * `<mj-raw>`… is the HTML up to its closing tag (read with parse5), and `<mj-include>` brings in a
 * partial, never from outside the directory named nor through a link (src/base/tree-files.ts).
 * MJML's own elements become the mapper's: a section of 2 to 4 columns its columns, a button a
 * button. A file MJML's validation would refuse (an element MJML does not have, or one where MJML
 * does not take it: its rules validTag and validChildren), or whose tag is never closed, is refused,
 * naming the place. The tags are read and checked in mjml-tags.ts.
 */
import { LocalFileError } from '../../base/errors.js';
import type { SourceDocument } from '../document.js';
import {
  element,
  type Findings,
  MAX_SOURCE_DEPTH,
  nestedTooDeep,
  type Place,
  SHOWN_IN_TURN,
  type SourceElement,
  type SourceNode,
  type Style,
  shorten,
  text,
  textContent,
} from '../model.js';
import { pixels } from '../styles.js';
import { templateLogic } from '../variables.js';
import { htmlFragment } from './html-source.js';
import { mjmlImage, type SizedImage, sizeImages, writtenAlt } from './mjml-image.js';
import { mjmlSocial } from './mjml-social.js';
import { accordionLook, boxStyle, innerBorders, MJML_DEFAULTS, mjmlTable, spacingOf, styleOf, unwrapColumn } from './mjml-styles.js';
import { applyMjStyles, withCssClass } from './mjml-stylesheet.js';
import { checkNesting, listGivenTwice, type MjmlTag, parseMjmlTags, TEXT } from './mjml-tags.js';

/** Where an included partial is a component: at the top of a body (in a column, it is written out in place). */
export const COMPONENT_PARENTS: ReadonlySet<string> = new Set(['mj-body', 'mj-wrapper']);

/** Reads a partial named by `<mj-include path>` from the including file's place; throws when it may not. */
export type IncludeReader = (path: string, from: Place) => { file: string; source: string };

export interface MjmlOptions {
  readInclude: IncludeReader;
  /** Partials that become components, by the path an include names them with (resolved by the reader). */
  components?: ReadonlyMap<string, { id: string }>;
  /** Resolves an include's path to the key `components` uses. */
  keyOf?: (path: string, from: Place) => string;
}

/** An MJML email: its head read (title, preview, fonts, default attributes), its body as the mapper's tree. */
export function readMjml(source: string, file: string, findings: Findings, options: MjmlOptions): SourceDocument {
  const tags = parseMjmlTags(source, file);
  const root = tags.find((tag) => tag.name === 'mjml');
  if (root === undefined)
    throw new LocalFileError(`${file}: no <mjml> root element`, { hint: 'MJML itself refuses a file without one: wrap the email in <mjml>…</mjml>' });
  const head = root.children.find((tag) => tag.name === 'mj-head');
  const body = root.children.find((tag) => tag.name === 'mj-body');
  if (body === undefined) throw new LocalFileError(`${file}: no <mj-body> in <mjml>`, { hint: 'an MJML email is its <mj-body>' });
  const reader = new MjmlReader(findings, options);
  const headChildren = head === undefined ? [] : reader.expandIncludes(head.children, 'mj-head', 2);
  const bodyChildren = reader.expandIncludes(body.children, 'mj-body', 2);
  const stray = tags.find((tag) => tag !== root && tag.name !== TEXT);
  if (stray !== undefined)
    throw new LocalFileError(`${file}:${stray.at.line}:${stray.at.column}: <${stray.name}> stands outside the <mjml> root`, {
      hint: 'MJML itself would refuse it: an email is one <mjml> element, which holds all of it',
    });
  // Beside one <mj-head> and one <mj-body>, <mjml> holds raw HTML only: a second body would be lost.
  const other = root.children.find((tag) => tag !== head && tag !== body && tag.name !== 'mj-raw' && tag.name !== TEXT);
  if (other !== undefined)
    throw new LocalFileError(
      `${file}:${other.at.line}:${other.at.column}: <${other.name}> cannot stand in <mjml>${other.name === 'mj-head' || other.name === 'mj-body' ? ' a second time' : ''}`,
      { hint: 'MJML itself would refuse it: <mjml> holds one <mj-head> and one <mj-body>' },
    );
  checkNesting(headChildren, 'mj-head');
  checkNesting(bodyChildren, 'mj-body');
  listGivenTwice([{ ...root, children: [] }, { ...body, children: [] }, ...headChildren, ...bodyChildren], findings);
  const headInfo = reader.head(headChildren);
  const bodyStyle: Style = {};
  const backgroundColor = body.attrs['background-color'];
  if (backgroundColor !== undefined) bodyStyle['background-color'] = backgroundColor;
  // MJML lays every section out as wide as the body at most, centred: the body is that box here.
  const width = reader.attrsOf(body).width ?? '600px';
  Object.assign(bodyStyle, { 'max-width': width, 'margin-left': 'auto', 'margin-right': 'auto' });
  // Text MJML writes before the doctype, which a browser shows at the top of the page, stands first in the body.
  const outside = reader.outsideRaws(root.children.filter((tag) => tag.name === 'mj-raw'));
  const [bodyNode] = withCssClass(reader.attrsOf(body)['css-class'], 'mj-body', [
    element('body', body.at, [...outside, ...reader.nodes(bodyChildren)], {}, bodyStyle),
  ]) as [SourceElement];
  applyMjStyles(reader.stylesheets, bodyNode, findings);
  sizeImages(reader.images, bodyNode, pixels(width) ?? 600);
  // <mjml lang="fr">, which MJML writes on the <html> it compiles.
  const lang = root.attrs.lang?.trim();
  return { body: bodyNode, subject: headInfo.title, previewText: headInfo.preview, font: headInfo.font, ...(lang ? { lang } : {}) };
}

/** The nodes of an MJML partial made a component. */
export function readMjmlPartial(source: string, file: string, findings: Findings, options: MjmlOptions): SourceNode[] {
  const reader = new MjmlReader(findings, options);
  const tags = parseMjmlTags(source, file);
  const root = tags.find((tag) => tag.name === 'mjml');
  const inside = reader.expandIncludes(root?.children.find((tag) => tag.name === 'mj-body')?.children ?? tags, '#partial', 2);
  checkNesting(inside, '#partial');
  listGivenTwice(inside, findings);
  return reader.nodes(inside);
}

/**
 * An email's includes, bounded in number and in the MJML they bring in all told: a partial that
 * includes another twice, fourteen deep, would otherwise expand to gigabytes from 2 KB.
 */
export const MAX_INCLUDES = 500;

export const MAX_INCLUDED_CHARACTERS = 4 * 1024 * 1024;

class MjmlReader {
  /** Default attributes: per tag (`mj-text`), for all (`mj-all`), per class (`mj-class`). */
  private readonly defaults = new Map<string, Record<string, string>>();
  private readonly classes = new Map<string, Record<string, string>>();
  /** The `<mj-style>`s of the head, applied once the body is read. */
  readonly stylesheets: { css: string; at: Place }[] = [];
  /** Each `<mj-image>`'s image that keeps its width on a phone, with the box it stands in (its padded cell). */
  readonly images: SizedImage[] = [];
  private depth = 0;
  private includes = 0;
  private included = 0;

  constructor(
    private readonly findings: Findings,
    private readonly options: MjmlOptions,
  ) {}

  /**
   * Includes replaced by what they hold, at any depth; one of a body's that is a component becomes
   * its reference. `depth` is where the tags stand in the email, included partials counted in:
   * each file is bounded as it is read, and so is what the partials make together.
   */
  expandIncludes(tags: MjmlTag[], parent: string, depth: number): MjmlTag[] {
    const result: MjmlTag[] = [];
    for (const tag of tags) {
      if (depth > MAX_SOURCE_DEPTH) throw nestedTooDeep(tag.at);
      if (tag.name !== 'mj-include') {
        result.push({ ...tag, children: this.expandIncludes(tag.children, tag.name, depth + 1) });
        continue;
      }
      const path = tag.attrs.path;
      if (path === undefined) throw new LocalFileError(`${tag.at.file}:${tag.at.line}:${tag.at.column}: <mj-include> without a path`);
      const component = this.options.components?.get(this.options.keyOf?.(path, tag.at) ?? path);
      if (component !== undefined && COMPONENT_PARENTS.has(parent)) {
        result.push({ name: '#component', attrs: { id: component.id }, children: [], at: tag.at });
        continue;
      }
      if (this.depth > 20)
        throw new LocalFileError(`${tag.at.file}:${tag.at.line}:${tag.at.column}: <mj-include> nested more than 20 deep (an include that includes itself?)`);
      const included = this.options.readInclude(path, tag.at);
      this.includes += 1;
      this.included += included.source.length;
      if (this.includes > MAX_INCLUDES || this.included > MAX_INCLUDED_CHARACTERS)
        throw new LocalFileError(
          `${tag.at.file}:${tag.at.line}:${tag.at.column}: <mj-include> brings in more than ${this.includes > MAX_INCLUDES ? `${MAX_INCLUDES} partials` : `${MAX_INCLUDED_CHARACTERS / 1024 / 1024} MB of MJML`} for one email`,
          { hint: 'partials that include others several times multiply: include each once, or make a repeated part a component' },
        );
      if (tag.attrs.type === 'css' || tag.attrs.type === 'html') {
        result.push({
          name: tag.attrs.type === 'css' ? 'mj-style' : 'mj-raw',
          attrs: {},
          children: [],
          at: tag.at,
          content: { html: included.source, at: { file: included.file, line: 1, column: 1 } },
        });
        continue;
      }
      const inner = parseMjmlTags(included.source, included.file);
      const root = inner.find((candidate) => candidate.name === 'mjml');
      const section = root?.children.find((candidate) => candidate.name === (parent === 'mj-head' ? 'mj-head' : 'mj-body'))?.children ?? inner;
      this.depth += 1;
      result.push(...this.expandIncludes(section, parent, depth));
      this.depth -= 1;
    }
    return result;
  }

  /**
   * The `<mj-raw>`s beside `<mj-head>` and `<mj-body>`, each listed where it holds anything: MJML writes one of
   * `position="file-start"` before the doctype (for a template language's statements; a browser shows its text at
   * the top of the page), which is kept as an `x-file-start` no block is made of, and any other nowhere.
   */
  outsideRaws(tags: MjmlTag[]): SourceNode[] {
    return tags.flatMap((tag) => {
      const nodes = tag.content === undefined ? [] : htmlFragment(tag.content.html, tag.content.at);
      const text = nodes.map(textContent).join('').replace(/\s+/g, ' ').trim();
      if (tag.attrs.position !== 'file-start') {
        if (text !== '')
          this.findings.add(
            tag.at,
            '<mj-raw> beside <mj-body>',
            'dropped',
            `dropped with its text "${shorten(text)}", as MJML writes it nowhere`,
            'nothing to do: no client shows it',
          );
        return [];
      }
      if (text === '') return [];
      this.findings.add(
        tag.at,
        'text before the email’s HTML (<mj-raw position="file-start">)',
        'dropped',
        `dropped with its text "${shorten(text)}"`,
        'LMX writes nothing before its HTML: text to show goes in <mj-body>; a template language’s statements, into data variables the app sends',
      );
      return [element('x-file-start', tag.at, nodes)];
    });
  }

  head(tags: MjmlTag[]): { title?: string; preview?: string; font?: string } {
    const info: { title?: string; preview?: string; font?: string } = {};
    for (const tag of tags) {
      const content = tag.content?.html.replace(/\s+/g, ' ').trim();
      if (tag.name === 'mj-title') info.title = content;
      else if (tag.name === 'mj-preview') info.preview = content;
      else if (tag.name === 'mj-font') info.font ??= tag.attrs.name;
      else if (tag.name === 'mj-attributes') this.attributes(tag.children);
      else if (tag.name === 'mj-style' && content !== '') this.stylesheets.push({ css: tag.content!.html, at: tag.at });
      else if (tag.name === 'mj-raw' && content !== '')
        this.findings.add(tag.at, 'raw HTML in <mj-head> (<mj-raw>)', 'dropped', 'dropped', 'LMX writes the head of its emails itself: nothing to carry');
      else if (tag.name === 'mj-html-attributes')
        this.findings.add(tag.at, '<mj-html-attributes>', 'dropped', 'dropped', 'LMX sets no HTML attributes: nothing to carry');
    }
    info.font ??= this.defaults.get('mj-all')?.['font-family'] ?? this.defaults.get('mj-text')?.['font-family'];
    return info;
  }

  private attributes(tags: MjmlTag[]): void {
    for (const tag of tags) {
      if (tag.name === 'mj-class') this.classes.set(tag.attrs.name ?? '', Object.fromEntries(Object.entries(tag.attrs).filter(([name]) => name !== 'name')));
      else this.defaults.set(tag.name, { ...this.defaults.get(tag.name), ...tag.attrs });
    }
  }

  /**
   * A tag's attributes as MJML gives them: its own, over its classes', over `<mj-attributes>`' for
   * its tag, over `<mj-all>`'s, over the element's defaults in MJML.
   */
  attrsOf(tag: { name: string; attrs: Record<string, string> }): Record<string, string> {
    const fromClasses = (tag.attrs['mj-class'] ?? '').split(/\s+/).map((name) => this.classes.get(name) ?? {});
    return Object.assign({}, MJML_DEFAULTS[tag.name], this.defaults.get('mj-all'), this.defaults.get(tag.name), ...fromClasses, tag.attrs);
  }

  nodes(tags: MjmlTag[]): SourceNode[] {
    return tags.flatMap((tag) => withCssClass(this.attrsOf(tag)['css-class'], tag.name, this.node(tag)));
  }

  // A table of MJML's elements, each a few lines: one piece.
  private node(tag: MjmlTag): SourceNode[] {
    const attrs = this.attrsOf(tag);
    const style = styleOf(tag.name, attrs);
    const html = () => (tag.content === undefined ? [] : htmlFragment(tag.content.html, tag.content.at));
    switch (tag.name) {
      case '#component':
        return [element('x-component', tag.at, [], { id: tag.attrs.id! })];
      case TEXT:
        this.logicBetween(tag);
        return [];
      case 'mj-wrapper':
        return [element('div', tag.at, this.nodes(tag.children), {}, boxStyle(style))];
      case 'mj-hero':
        return [element('div', tag.at, this.nodes(tag.children), { 'background-url': attrs['background-url'] ?? '' }, boxStyle(style))];
      case 'mj-section': {
        const columns = tag.children.filter((child) => child.name === 'mj-column' || child.name === 'mj-group');
        const children = this.nodes(tag.children);
        const attributes: Record<string, string> = attrs['background-url'] === undefined ? {} : { 'background-url': attrs['background-url'] };
        if (columns.length <= 1)
          return [
            element(
              'div',
              tag.at,
              children.flatMap((child) => unwrapColumn(child, attrs['text-align'] ?? 'center')),
              attributes,
              boxStyle(style),
            ),
          ];
        // A section's columns (and groups) stand one under the other below 480 px, as MJML's media query puts them.
        return [element('x-columns', tag.at, children, { ...attributes, 'data-stack-below': '480' }, boxStyle(style))];
      }
      case 'mj-group':
        // A group is one column of its section (its share of the row, stacked with the others on a phone) whose own
        // columns stay side by side at every width: MJML writes their share of the group inline, outside its media query.
        return [
          element(
            'x-column',
            tag.at,
            [element('x-columns', tag.at, this.nodes(tag.children), { 'data-stack-below': '0' })],
            { width: attrs.width ?? '', 'vertical-align': attrs['vertical-align'] ?? '' },
            style,
          ),
        ];
      case 'mj-column':
        return [
          element(
            'x-column',
            tag.at,
            this.nodes(tag.children),
            { width: attrs.width ?? '', 'vertical-align': attrs['vertical-align'] ?? '' },
            innerBorders(attrs, style),
          ),
        ];
      case 'mj-text':
        return [element('div', tag.at, html(), {}, style)];
      case 'mj-button': {
        // The padding and container-background-color are its cell's, around it; the inner padding is inside it.
        const own = Object.fromEntries(Object.entries(style).filter(([property]) => !property.startsWith('padding') && property !== 'background-color'));
        if (attrs['background-color'] !== undefined) own['background-color'] = attrs['background-color'];
        const cell = Object.fromEntries(Object.entries(style).filter(([property]) => property.startsWith('padding')));
        if (attrs['container-background-color'] !== undefined) cell['background-color'] = attrs['container-background-color'];
        const button = element(
          'x-button',
          tag.at,
          html(),
          { href: attrs.href ?? '', align: attrs.align ?? '', 'inner-padding': attrs['inner-padding'] ?? '', height: attrs.height ?? '' },
          own,
        );
        return [element('div', tag.at, [button], {}, cell)];
      }
      case 'mj-image': {
        const { img, box } = mjmlImage(tag, attrs, style);
        if (attrs['fluid-on-mobile'] !== 'true') this.images.push({ img, box });
        return [box];
      }
      case 'mj-divider': {
        // Its padding is its cell's, around the line (10 px 25 px unless told): the line stands inside it, as wide as its width says.
        const line = Object.fromEntries(Object.entries(style).filter(([property]) => !(property in spacingOf(style))));
        const border = `${attrs['border-width'] ?? ''} ${attrs['border-style'] ?? ''} ${attrs['border-color'] ?? ''}`;
        return [
          element(
            'div',
            tag.at,
            [element('hr', tag.at, [], { width: attrs.width ?? '' }, { ...line, border: 'none', 'border-top': border })],
            {},
            spacingOf(style),
          ),
        ];
      }
      case 'mj-spacer':
        return [element('x-spacer', tag.at, [], { height: attrs.height ?? '' })];
      case 'mj-social':
        // Its padding is its cell's, around the row and its labels.
        return [
          element(
            'div',
            tag.at,
            mjmlSocial(tag, attrs, (child) => this.attrsOf(child), this.findings),
            {},
            spacingOf(style),
          ),
        ];
      case 'mj-table':
        return [mjmlTable(tag.at, html(), attrs, style)];
      case 'mj-raw':
        this.findings.add(
          tag.at,
          'raw HTML (<mj-raw>)',
          'approximated',
          'its HTML carried as far as it maps to LMX',
          'check the converted blocks against the original',
        );
        return html();
      case 'mj-navbar':
        return [this.navbar(tag, attrs)];
      case 'mj-accordion':
      case 'mj-carousel':
        this.findings.add(
          tag.at,
          `<${tag.name}>`,
          'flattened',
          'its items written one after another',
          'LMX has no interactive elements: keep the items as plain blocks',
        );
        return this.nodes(tag.children);
      case 'mj-accordion-element':
        return this.nodes(tag.children);
      // A title's and a text's colours and font, as MJML draws them (a white title bar in a grey column).
      case 'mj-accordion-title':
        return [element('h3', tag.at, html(), {}, accordionLook(style))];
      case 'mj-accordion-text':
        return [element('div', tag.at, html(), {}, accordionLook(style))];
      // Each picture drawn at the carousel's width, as an image of no width of MJML's is (an empty width: MJML's to work out).
      case 'mj-carousel-image':
        return [element('img', tag.at, [], { src: attrs.src ?? '', ...writtenAlt(attrs), width: '', [SHOWN_IN_TURN]: '' })];
      default:
        return [];
    }
  }

  /** A condition, loop or partial of a template language between elements: each branch's elements are all written, so it is listed. */
  private logicBetween(tag: MjmlTag): void {
    for (const logic of templateLogic(tag.content!.html, tag.content!.at)) {
      const done = {
        condition: 'the condition dropped: the elements of every branch written',
        loop: 'the loop dropped: the elements of its body written once',
        context: 'the block dropped: the elements inside written, their variables named as written, not by the block’s path',
        partial: 'the partial dropped: MJML shows no text between its elements',
      }[logic.kind];
      const todo = {
        condition: 'move the choice to the sender: send one email per case, or the varying text as a data variable',
        loop: 'send the repeated part as one data variable the app builds',
        context: 'write each variable’s full path in the LMX, or send the values under the names it gives them',
        partial: 'make the partial a component and embed it with <Component>',
      }[logic.kind];
      this.findings.add(logic.at, `${logic.tag} between MJML elements`, logic.kind === 'partial' ? 'dropped' : 'flattened', done, todo);
    }
  }

  private navbar(tag: MjmlTag, attrs: Record<string, string>): SourceElement {
    this.findings.add(tag.at, '<mj-navbar>', 'approximated', 'its links written as one line of links', 'check the line in the preview');
    const children: SourceNode[] = [];
    const links = tag.children.filter((child) => child.name === 'mj-navbar-link');
    // Each link's colour where the email gives one (MJML's own black is left to the theme's link colour, as a link's default is).
    const colours = links.map((link) => this.attrsOf(link).color);
    links.forEach((link, index) => {
      if (children.length > 0) children.push(text(' · ', link.at));
      const content = link.content === undefined ? [] : htmlFragment(link.content.html, link.content.at);
      const color = colours[index];
      // MJML writes a link's address after the navbar's base-url as it is (`https://mjml.io` and `/templates`): so does convert.
      const href = `${attrs['base-url'] ?? ''}${link.attrs.href ?? ''}`;
      children.push(element('a', link.at, content, { href }, color === undefined ? {} : { color }));
    });
    // The dots between the links are drawn in the links' colour, where they share one: they stand on the header the links stand on.
    const shared = colours.every((colour) => colour === colours[0]) ? colours[0] : undefined;
    return element('p', tag.at, children, {}, { 'text-align': attrs.align ?? '', ...(shared === undefined ? {} : { color: shared }) });
  }
}
