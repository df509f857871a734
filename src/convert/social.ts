/** Social icons (MJML's `<mj-social>`, a row of linked network icons in HTML) as LMX's `<Icons>`. */
import { KNOWN_ICON_NAMES, LMX_TAGS } from '../lmx/index.js';
import { contrastRatio, READABLE } from './contrast.js';
import { hrefOf, type MapContext } from './inline.js';
import { recordSource } from './layout/block-source.js';
import { block, type LmxBlock } from './lmx-out.js';
import type { SourceElement } from './model.js';
import { alignOf } from './styles.js';

/** The colours LMX draws icons in (`<Icons color>`), its default, black, first. */
const ICON_COLOUR = LMX_TAGS.get('Icons')?.attributes.color;
const ICON_COLOURS = ICON_COLOUR?.type === 'enum' ? ICON_COLOUR.values : ['#000000'];

/** The names other tools give social networks, as the icon names LMX knows. */
const ICON_ALIASES: Record<string, string> = { google: 'google', x: 'x-twitter', mail: 'envelope', email: 'envelope', web: 'link', website: 'link' };

export function socialBlocks(node: SourceElement, context: MapContext): LmxBlock[] {
  const icons: LmxBlock[] = [];
  for (const link of node.children) {
    if (link.type !== 'element') continue;
    // The address is the one the source links to (MJML's share page put in by its reader); `-noshare` is MJML's word for the address itself.
    const network = (link.attrs.name ?? '').replace(/-noshare$/, '');
    const name = ICON_ALIASES[network] ?? network;
    if (!KNOWN_ICON_NAMES.has(name)) {
      context.findings.add(
        link.at,
        `the social link "${link.attrs.name}"`,
        'dropped',
        'no icon of that name in LMX',
        'add it as a <Link> in a paragraph, or as an <Image> with a link',
      );
      continue;
    }
    const icon = block('Icon', { name });
    // A full address, its variables made LMX's; one that holds a tag no variable stands for goes nowhere, as one that is not full.
    const href = link.attrs.href !== undefined && /^(https?:|mailto:|tel:)/i.test(link.attrs.href) ? hrefOf(link.attrs.href, link, context) : '';
    if (href !== '') icon.attrs.href = href;
    else if (link.attrs.href)
      context.findings.add(
        link.at,
        `the address "${link.attrs.href}"`,
        'dropped',
        `the ${name} icon written without a link`,
        'give the icon the full https address of the profile',
      );
    icons.push(icon);
  }
  if (icons.length === 0) return [];
  const made = block('Icons', {}, { blocks: icons });
  // LMX draws icons black unless told: on a dark band (a footer's), the one of its three colours that reads best there.
  const behind = context.sourceBackground ?? context.background;
  if (behind !== undefined && contrastRatio(ICON_COLOURS[0]!, behind) < READABLE)
    made.attrs.color = ICON_COLOURS.reduce((best, colour) => (contrastRatio(colour, behind) > contrastRatio(best, behind) ? colour : best));
  // MJML's row says its alignment (centred by default); a row of linked icons in HTML stands as its line aligns.
  const align = alignOf(node.attrs.align) ?? alignOf(context.inherited['text-align']) ?? 'left';
  made.attrs.align = align;
  recordSource(made, context.holder, 'media', align);
  return [made];
}
