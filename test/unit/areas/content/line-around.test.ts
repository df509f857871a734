import { describe, expect, it } from 'vitest';
import { lineAround } from '../../../../src/areas/content/shared/render.js';

describe('the source line under a problem', () => {
  it('is shown whole when it fits', () => {
    expect(lineAround('<Paragraph>Hi</Paragraph>', 12, 80)).toEqual({ text: '<Paragraph>Hi</Paragraph>', caret: 11 });
  });

  it('is cut around the column within the width, the ellipses included, the caret under the column', () => {
    const line = `<Paragraph>${'word '.repeat(40)}<Link href="https://acme.example">here</Link> ${'more '.repeat(40)}</Paragraph>`;
    const column = line.indexOf('<Link') + 1;
    for (const width of [40, 77, 120]) {
      const shown = lineAround(line, column, width);
      expect([...shown.text].length).toBeLessThanOrEqual(width);
      expect(shown.text.startsWith('…') && shown.text.endsWith('…')).toBe(true);
      expect(shown.text.slice(shown.caret).startsWith('<Link')).toBe(true);
    }
    // Cut at one end only: the start of the line.
    const start = lineAround(line, 1, 77);
    expect([...start.text].length).toBeLessThanOrEqual(77);
    expect(start.caret).toBe(0);
  });
});
