/**
 * What the mapper reads of a source element's shape before mapping it: a row's columns and their
 * widths, and the parts of a link that holds blocks.
 */
import { element, type SourceElement, type SourceNode } from './model.js';

/**
 * A row's columns: its column elements, and each run of anything else between them (React Email's
 * `<Row>` around `<Text>` or `<Img>`, a table row's content outside a cell) as a column of its own,
 * so nothing a row holds is lost.
 */
export function columnsOf(row: SourceElement): SourceElement[] {
  const columns: SourceElement[] = [];
  let loose: SourceNode[] = [];
  const flush = () => {
    if (loose.some((child) => child.type !== 'text' || child.text.trim() !== '')) columns.push(element('x-column', loose[0]!.at, loose));
    loose = [];
  };
  for (const child of row.children) {
    if (child.type === 'element' && child.name === 'x-column') {
      flush();
      columns.push(child);
    } else loose.push(child);
  }
  flush();
  return columns;
}

/** The columns' widths as whole percentages adding up to 100, when the source gives them all. */
export function columnWidths(columns: SourceElement[]): string | undefined {
  const given = columns.map((column) => /^(\d+(?:\.\d+)?)%$/.exec(column.attrs.width ?? '')?.[1]);
  if (given.some((width) => width === undefined)) return undefined;
  const numbers = given.map(Number);
  const total = numbers.reduce((sum, width) => sum + width, 0);
  const rounded = numbers.map((width) => Math.round((width / total) * 100));
  rounded[rounded.length - 1]! += 100 - rounded.reduce((sum, width) => sum + width, 0);
  if (rounded.every((width) => width === rounded[0])) return undefined;
  return rounded.join(',');
}

/**
 * A link that holds an image and more (`<a><img /><span>Apply now</span></a>`), as its parts each
 * linked: the image, and each run of the rest. A mail client follows the link wherever it is
 * clicked; LMX links an image, or text, not a block holding both.
 */
export function linkedParts(link: SourceElement): SourceNode[] {
  const parts: SourceNode[] = [];
  let run: SourceNode[] = [];
  const flush = () => {
    if (run.some((child) => child.type !== 'text' || child.text.trim() !== '')) parts.push({ ...link, children: run });
    run = [];
  };
  for (const child of link.children) {
    if (child.type !== 'element' || child.name !== 'img') run.push(child);
    else {
      flush();
      parts.push({ ...link, children: [child] });
    }
  }
  flush();
  return parts;
}
