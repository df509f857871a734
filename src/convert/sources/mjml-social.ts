/**
 * MJML's `<mj-social>` read as MJML renders it (mjml-social's SocialElement.js, MJML 5.4.0): each
 * `<mj-social-element>` an icon linked to its network's share page, the href put in as `[[URL]]`
 * (a `-noshare` name, or a network without a share page, links to the href as written), and the
 * label it holds ("an ending tag": HTML) beside its icon, linked to the same address, or plain
 * text where the element has no href, in the element's colour and size (those of `<mj-social>`
 * passed down to it: #333333 and 13px by default).
 */

import { element, type Findings, type Place, type SourceElement, type SourceNode, type Style, text, textContent } from '../model.js';
import { htmlFragment } from './html-source.js';

/** An MJML tag as the social row needs it (the reader's tags are of this shape). */
export interface SocialTag {
  name: string;
  attrs: Record<string, string>;
  children: readonly SocialTag[];
  content?: { html: string; at: Place };
  at: Place;
}

/** The networks MJML links to a share page, and the page (SocialElement.js's `share-url`). */
const SHARE_URLS: Record<string, string> = {
  facebook: 'https://www.facebook.com/sharer/sharer.php?u=[[URL]]',
  twitter: 'https://twitter.com/intent/tweet?url=[[URL]]',
  x: 'https://twitter.com/intent/tweet?url=[[URL]]',
  google: 'https://plus.google.com/share?url=[[URL]]',
  pinterest: 'https://pinterest.com/pin/create/button/?url=[[URL]]&media=&description=',
  linkedin: 'https://www.linkedin.com/shareArticle?mini=true&url=[[URL]]&title=&summary=&source=',
  tumblr: 'https://www.tumblr.com/widgets/share/tool?canonicalUrl=[[URL]]',
  xing: 'https://www.xing.com/app/user?op=share&url=[[URL]]',
};

/** The address MJML links a network's icon and label to. */
function addressOf(network: string, href: string): string {
  const share = SHARE_URLS[network];
  return share === undefined || href === '' ? href : share.replace('[[URL]]', href);
}

/** The attributes `<mj-social>` passes down to its elements (Social.js's getSocialElementAttributes), and their defaults. */
const LABEL_STYLE: Record<string, string> = { color: '#333333', 'font-size': '13px', 'font-weight': '', 'font-style': '' };

/** An ending tag's content as MJML shows it: trimmed (mjml-core's getContent). */
function trimmed(nodes: SourceNode[]): SourceNode[] {
  return nodes.map((node, index) => {
    if (node.type !== 'text') return node;
    let value = node.text;
    if (index === 0) value = value.trimStart();
    if (index === nodes.length - 1) value = value.trimEnd();
    return { ...node, text: value };
  });
}

/** One label as MJML shows it: a link to the icon's address, or text. */
function labelOf(content: SourceNode[], href: string, at: Place, style: Style): SourceElement {
  return href === '' ? element('span', at, content, {}, style) : element('a', at, content, { href }, style);
}

/**
 * The icon row (`x-social`) and, where the elements hold labels, the labels as a paragraph of links
 * under it (one per label in MJML's vertical mode): LMX's icons take no text beside them.
 */
export function mjmlSocial(
  tag: SocialTag,
  attrs: Record<string, string>,
  attrsOf: (tag: SocialTag) => Record<string, string>,
  findings: Findings,
): SourceNode[] {
  const links: SourceElement[] = [];
  const labels: SourceElement[] = [];
  const passed = (own: Record<string, string>): Style => {
    const style: Style = {};
    for (const [name, fallback] of Object.entries(LABEL_STYLE)) {
      const value = own[name] ?? attrs[name] ?? fallback;
      if (value !== '') style[name] = value;
    }
    return style;
  };
  for (const child of tag.children) {
    if (child.name !== 'mj-social-element') continue;
    const own = attrsOf(child);
    const network = own.name ?? '';
    const href = addressOf(network, own.href ?? '');
    links.push(element('x-social-link', child.at, [], { name: network, href }));
    const content = child.content === undefined ? [] : trimmed(htmlFragment(child.content.html, child.content.at));
    if (content.some((node) => textContent(node).trim() !== '')) labels.push(labelOf(content, href, child.at, passed(own)));
  }
  // MJML 3's form: display="facebook twitter" with facebook-href="…" and the label in facebook-content="…".
  for (const name of (attrs.display ?? '').split(/\s+/).filter(Boolean)) {
    const network = name.split(':')[0]!;
    const href = addressOf(network, attrs[`${network}-href`] ?? '');
    links.push(element('x-social-link', tag.at, [], { name: network, href }));
    const label = attrs[`${network}-content`]?.trim();
    if (label) labels.push(labelOf([text(label, tag.at)], href, tag.at, passed({})));
  }
  const row = element('x-social', tag.at, links, { align: attrs.align ?? '' });
  if (labels.length === 0) return [row];
  findings.add(
    tag.at,
    'the labels of <mj-social-element>',
    'approximated',
    'the icons written as a row of LMX icons, their labels under it as links to the same addresses',
    'LMX’s icons take no text beside them: check the row and its labels in the preview',
  );
  // The dots between the labels are drawn in the labels' colour, where they share one: they stand where the labels stand.
  const colours = labels.map((label) => label.style.color);
  const shared = colours.every((colour) => colour === colours[0]) ? colours[0] : undefined;
  const paragraph = (children: SourceNode[]) =>
    element('p', tag.at, children, {}, { 'text-align': attrs.align ?? 'center', ...(shared === undefined ? {} : { color: shared }) });
  if (attrs.mode === 'vertical') return [row, ...labels.map((label) => paragraph([label]))];
  return [row, paragraph(labels.flatMap((label, index) => (index === 0 ? [label] : [text(' · ', label.at), label])))];
}
