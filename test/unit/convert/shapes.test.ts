/**
 * What the mapper reads of a row's columns and of a link holding an image: each column kept, the
 * widths given in percent, and each part of the link linked.
 */
import { describe, expect, it } from 'vitest';
import { element, type SourceElement, type SourceNode, text } from '../../../src/convert/model.js';
import { columnsOf, columnWidths, linkedParts } from '../../../src/convert/shapes.js';

const at = (line: number) => ({ file: 'email.html', line, column: 1 });
const column = (width?: string) => element('x-column', at(1), [], width === undefined ? {} : { width });
const names = (nodes: SourceNode[]) => nodes.map((node) => (node.type === 'element' ? node.name : node.type));

describe('columnsOf', () => {
  it('keeps each column and makes a column of each run of anything else, blank text dropped', () => {
    const first = column();
    const image = element('img', at(3));
    const row = element('x-row', at(1), [text('  \n', at(1)), first, text('Hello', at(2)), image, text(' ', at(3))]);
    const columns = columnsOf(row);
    expect(columns).toHaveLength(2);
    expect(columns[0]).toBe(first);
    expect(columns[1]).toMatchObject({ type: 'element', name: 'x-column', at: at(2) });
    expect(names(columns[1]!.children)).toEqual(['text', 'img', 'text']);
  });

  it('makes a column of a run that holds only an element or only a variable', () => {
    const variable: SourceNode = { type: 'variable', path: ['firstName'], source: '{firstName}', at: at(4) };
    expect(columnsOf(element('x-row', at(1), [element('img', at(4))]))).toHaveLength(1);
    expect(columnsOf(element('x-row', at(1), [variable]))).toHaveLength(1);
    expect(columnsOf(element('x-row', at(1), [text('Hello', at(1))]))).toHaveLength(1);
    expect(columnsOf(element('x-row', at(1), [text(' ', at(1))]))).toEqual([]);
  });

  it('takes an element named otherwise for content, not a column', () => {
    const cell = element('td', at(2));
    const columns = columnsOf(element('x-row', at(1), [cell]));
    expect(columns[0]!.name).toBe('x-column');
    expect(columns[0]!.children).toEqual([cell]);
  });
});

describe('columnWidths', () => {
  it('gives whole percentages adding up to 100, the last taking the rounding', () => {
    expect(columnWidths([column('25%'), column('75%')])).toBe('25,75');
    expect(columnWidths([column('30%'), column('30%'), column('40%')])).toBe('30,30,40');
    // Scaled to 100 when they add up to something else.
    expect(columnWidths([column('20%'), column('60%')])).toBe('25,75');
    expect(columnWidths([column('33.3%'), column('33.3%'), column('50%')])).toBe('29,29,42');
    expect(columnWidths([column('33.33%'), column('66.67%')])).toBe('33,67');
  });

  it('gives none when a column has no width in percent, or all are equal', () => {
    expect(columnWidths([column('25%'), column()])).toBeUndefined();
    expect(columnWidths([column('25%'), column('300px')])).toBeUndefined();
    expect(columnWidths([column('25%'), column('x75%')])).toBeUndefined();
    expect(columnWidths([column('25%'), column('75%x')])).toBeUndefined();
    expect(columnWidths([column('25%'), column('7.%')])).toBeUndefined();
    expect(columnWidths([column('50%'), column('50%')])).toBeUndefined();
  });
});

describe('linkedParts', () => {
  const link = (children: SourceNode[]): SourceElement => element('a', at(1), children, { href: 'https://example.com' });

  it('links the image and each run of the rest, blank text dropped', () => {
    const image = element('img', at(2));
    const parts = linkedParts(link([text(' ', at(1)), image, element('span', at(3), [text('Apply now', at(3))]), text('\n', at(4))]));
    expect(parts).toHaveLength(2);
    expect(parts.map((part) => (part as SourceElement).attrs.href)).toEqual(['https://example.com', 'https://example.com']);
    expect((parts[0] as SourceElement).children).toEqual([image]);
    expect(names((parts[1] as SourceElement).children)).toEqual(['span', 'text']);
  });

  it('keeps a run that holds only a variable, and drops one of blank text only', () => {
    const variable: SourceNode = { type: 'variable', path: ['name'], source: '{name}', at: at(1) };
    expect(linkedParts(link([variable]))).toHaveLength(1);
    expect(linkedParts(link([text('  ', at(1))]))).toEqual([]);
    expect(linkedParts(link([text('Go', at(1))]))).toHaveLength(1);
  });
});
