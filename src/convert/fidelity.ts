/**
 * Nothing lost in silence, by construction: after an email is converted, what its source shows
 * (its visible words, the addresses of its links and images, read from the source document the
 * reader made) is compared with what the LMX holds. Every word, link or image the LMX lacks that
 * no rule has listed (at its own place or at a dropped element around it) is listed as not carried,
 * at its source place; text the source hides and the LMX shows is listed too.
 */
import { elementsOf, type LmxNode, parseLmx } from '../lmx/index.js';
import type { SourceDocument } from './document.js';
import { type Fidelity, type Findings, type Measure, type Place, type SourceElement, type SourceNode, shorten } from './model.js';
import { hiddenBy, UNSEEN } from './styles.js';
import { readerWords, TEMPLATE_TAG } from './variables.js';

const lmxWords = (value: string) => value.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** An address compared as a reader follows it: template tags and LMX variables alike as `{}`. */
const addressOf = (value: string) =>
  value
    .trim()
    .replace(TEMPLATE_TAG, '{}')
    .replace(/\{(?:contact|event|data)\.[\w-]+\}/g, '{}');

interface Seen {
  value: string;
  /** As the source writes it, for the list: an address's template tags as written, not as compared. */
  written?: string;
  at: Place;
  /** A rule listed it already: a dropped element around it, or an entry at its own place. */
  named: boolean;
}

interface SourceContent {
  words: Seen[];
  links: Seen[];
  images: Seen[];
  hidden: { text: string; at: Place; why: string; named: boolean }[];
}

const key = (at: Place) => `${at.file}:${at.line}:${at.column}`;

/** The source's visible content, walked without recursion. */
function sourceContent(body: SourceElement, findings: Findings): SourceContent {
  const dropped = new Set(findings.remediation.filter((item) => item.outcome === 'dropped').map(key));
  const listed = new Set(findings.remediation.map(key));
  const content: SourceContent = { words: [], links: [], images: [], hidden: [] };
  const pending: { node: SourceNode; named: boolean; hidden?: string }[] = [{ node: body, named: false }];
  while (pending.length > 0) {
    const { node, named: outer, hidden } = pending.pop()!;
    const named = outer || dropped.has(key(node.at));
    if (node.type !== 'element') {
      if (node.type === 'text' && hidden === undefined) for (const word of readerWords(node.text)) content.words.push({ value: word, at: node.at, named });
      continue;
    }
    if (UNSEEN.has(node.name)) continue;
    const why = hidden ?? hiddenBy(node);
    if (why !== undefined && hidden === undefined) {
      const text = hiddenText(node);
      // Named only where a rule dropped it: an entry about its size or colour says nothing of its being hidden.
      if (readerWords(text).length > 0) content.hidden.push({ text, at: node.at, why, named });
    }
    if (why === undefined) {
      const own = named || listed.has(key(node.at));
      const href = node.name === 'a' || node.name === 'x-button' || node.name === 'x-social-link' ? node.attrs.href?.trim() : undefined;
      if (href !== undefined && href !== '' && !href.startsWith('#')) content.links.push({ value: addressOf(href), written: href, at: node.at, named: own });
      const src = node.name === 'img' ? node.attrs.src?.trim() : undefined;
      if (src !== undefined && src !== '') content.images.push({ value: addressOf(src), written: src, at: node.at, named: own });
    }
    for (let index = node.children.length - 1; index >= 0; index -= 1) pending.push({ node: node.children[index]!, named, hidden: why });
  }
  // Read last, so that a word the LMX holds once is matched to the text kept, and this text's is the one lost.
  for (const left of findings.leftOut) for (const word of readerWords(left.text)) content.words.push({ value: word, at: left.at, named: true });
  return content;
}

function hiddenText(node: SourceElement): string {
  const parts: string[] = [];
  const pending: SourceNode[] = [node];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (next.type === 'text') parts.push(next.text);
    else if (next.type === 'element' && !UNSEEN.has(next.name))
      for (let index = next.children.length - 1; index >= 0; index -= 1) pending.push(next.children[index]!);
  }
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}

/** What the LMX holds: its words, and the addresses of its links and images, each counted. */
function lmxContent(
  lmx: string,
  uploaded: ReadonlyMap<string, string>,
): { words: Map<string, number>; links: Map<string, number>; images: Map<string, number> } {
  const document = parseLmx(lmx).document;
  const count = (map: Map<string, number>, value: string) => map.set(value, (map.get(value) ?? 0) + 1);
  const words = new Map<string, number>();
  const links = new Map<string, number>();
  const images = new Map<string, number>();
  const originalOf = new Map([...uploaded].map(([original, address]) => [address, original]));
  const pending: LmxNode[] = [...document.children];
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (node.kind === 'text') for (const word of lmxWords(node.value)) count(words, word);
    if (node.kind === 'element') pending.push(...node.children);
  }
  for (const element of elementsOf(document)) {
    // An image of a dynamic address has a placeholder src: its address is its dynamicSrc.
    const imageAddress = element.attributes.some((attribute) => attribute.name === 'dynamicSrc') ? 'dynamicSrc' : 'src';
    for (const attribute of element.attributes) {
      const value = attribute.parts.map((part) => (part.kind === 'text' ? part.value : '{}')).join('');
      if (attribute.name === 'href' && value.trim() !== '') count(links, addressOf(value));
      if (attribute.name === imageAddress && value.trim() !== '') count(images, addressOf(originalOf.get(value) ?? value));
      // What a block says in an attribute (a button's or an icon's text) is read as words too.
      if (attribute.name === 'text' || attribute.name === 'label') for (const word of lmxWords(value)) count(words, word);
    }
  }
  return { words, links, images };
}

/**
 * Each seen value the LMX holds, taken from its counts; the others returned. Those no rule listed
 * take first: a value a rule dropped (a link to an unsubscribe page, `{}` as another link's
 * variable address is) must not take the place of one the LMX keeps.
 */
function missing(seen: readonly Seen[], held: Map<string, number>): Seen[] {
  const lost: Seen[] = [];
  for (const item of [...seen.filter((one) => !one.named), ...seen.filter((one) => one.named)]) {
    const left = held.get(item.value) ?? 0;
    if (left > 0) held.set(item.value, left - 1);
    else lost.push(item);
  }
  return lost;
}

/** A seen address as its source writes it: each tag as written there (a React attribute's `{url}`, not the `{{url}}` it was read as). */
const asWritten = (seen: Seen, findings: Findings) => (seen.written ?? seen.value).replace(TEMPLATE_TAG, (tag) => findings.spellings.get(tag) ?? tag);

/**
 * Compares an email's source with its LMX and lists, at their source places, what no rule listed:
 * words, links and images the LMX lacks, and hidden text. `uploaded` maps an image's source
 * address to the one --upload gave it.
 */
export function measureFidelity(
  document: SourceDocument,
  lmx: string,
  findings: Findings,
  uploaded: ReadonlyMap<string, string> = new Map(),
  drawn: Pick<Fidelity, 'layout' | 'positions' | 'colours'> = {
    layout: { source: 0, kept: 0 },
    positions: { source: 0, kept: 0 },
    colours: { source: 0, kept: 0 },
  },
): Fidelity {
  const source = sourceContent(document.body, findings);
  const held = lmxContent(lmx, uploaded);
  const lostWords = missing(source.words, held.words);
  const lostLinks = missing(source.links, held.links);
  const lostImages = missing(source.images, held.images);
  // Words lost together at one place are one entry: the text they stood in.
  const byPlace = new Map<string, Seen[]>();
  for (const word of lostWords.filter((item) => !item.named)) byPlace.set(key(word.at), [...(byPlace.get(key(word.at)) ?? []), word]);
  for (const words of byPlace.values())
    findings.add(
      words[0]!.at,
      `the text "${shorten(words.map((word) => word.value).join(' '))}"`,
      'not carried',
      `${words.length === 1 ? 'a word' : `${words.length} words`} of it not in the LMX`,
      'write the missing words into the block where they stood (compare the preview with the original)',
    );
  for (const link of lostLinks.filter((item) => !item.named))
    findings.add(
      link.at,
      `the link to ${shorten(asWritten(link, findings))}`,
      'not carried',
      'the address is not in the LMX',
      'add the link to the block where it stood',
    );
  for (const image of lostImages.filter((item) => !item.named))
    findings.add(image.at, `the image ${shorten(asWritten(image, findings))}`, 'not carried', 'the image is not in the LMX', 'add an <Image> where it stood');
  const preview = new Set(readerWords(document.previewText ?? ''));
  // A hidden preheader is the preview text, carried in its field.
  for (const hidden of source.hidden.filter((item) => !item.named && !readerWords(item.text).every((word) => preview.has(word)))) {
    const shown = readerWords(hidden.text).some((word) => (held.words.get(word) ?? 0) > 0);
    findings.add(
      hidden.at,
      `text hidden by ${hidden.why}: "${shorten(hidden.text)}"`,
      'listed',
      shown ? 'LMX hides nothing: if its words are in the LMX, recipients now see them' : 'left out, as recipients never saw it',
      shown ? 'delete it from the LMX if recipients should not see it' : 'nothing, unless it was meant to show',
    );
  }
  const measure = (all: readonly Seen[], lost: readonly Seen[]): Measure => ({ source: all.length, kept: all.length - lost.length });
  // Words held but drawn where they no longer read (listed as they were found) are not kept either: a recipient does not see them.
  const words = measure(source.words, lostWords);
  const unread = findings.unreadable.reduce((sum, run) => sum + readerWords(run.text).length, 0);
  return {
    words: { ...words, kept: Math.max(0, words.kept - unread) },
    links: measure(source.links, lostLinks),
    images: measure(source.images, lostImages),
    ...drawn,
  };
}

/** `412 of 420 words kept (98.1%), links 12 of 14, images 5 of 5, layout: 11 of 12 blocks as the source, colours 20 of 20, positions 12 of 12`. */
export function fidelityLine(fidelity: Fidelity): string {
  const { words, links, images, layout, colours, positions } = fidelity;
  const share = words.source === 0 ? '' : ` (${((words.kept / words.source) * 100).toFixed(1)}%)`;
  return `${words.kept} of ${words.source} words kept${share}, links ${links.kept} of ${links.source}, images ${images.kept} of ${images.source}, layout: ${layout.kept} of ${layout.source} blocks as the source, colours ${colours.kept} of ${colours.source}, positions ${positions.kept} of ${positions.source}`;
}
