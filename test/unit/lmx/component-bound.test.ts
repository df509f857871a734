import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/base/errors.js';
import { MAX_COMPONENT_HTML, TOO_MUCH_COMPONENT_HTML } from '../../../src/lmx/expansion.js';
import { LMX_MAX_BYTES, parseLmx } from '../../../src/lmx/index.js';
import { renderLmx } from '../../../src/lmx/render/index.js';

/** A component of nearly 100 KB of paragraphs, which draws about 1 MB of HTML. */
const BIG_COMPONENT = parseLmx('<Paragraph>x</Paragraph>\n'.repeat(Math.floor(LMX_MAX_BYTES / 25))).document;
const embeds = (count: number) => parseLmx('<Component componentId="big" />\n'.repeat(count)).document;
const components = new Map([['big', BIG_COMPONENT]]);

describe('the HTML an email’s components draw is bounded', () => {
  it('draws a large component a few times', () => {
    const { html } = renderLmx(embeds(3), { components });
    expect(html.length).toBeGreaterThan(2 * 1024 * 1024);
    expect(html.length).toBeLessThan(MAX_COMPONENT_HTML);
  });

  it('stops with a usage error, not a crash, where embedding it again and again would make gigabytes', () => {
    // 40 embeds make about 40 MB; the 3,500 that fit in 100 KB would make 3 GB.
    let thrown: unknown;
    try {
      renderLmx(embeds(40), { components });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UsageError);
    expect(thrown).toMatchObject({ code: TOO_MUCH_COMPONENT_HTML, exitCode: 2, message: expect.stringMatching(/components draw more than 16 MB of HTML/) });
    expect((thrown as UsageError).hint).toContain('embed fewer components');
  });

  it('does not expand a component inside a component: the nesting is one deep', () => {
    const nesting = parseLmx('<Paragraph>outer</Paragraph>\n<Component componentId="self" />').document;
    const { html, nestedComponents } = renderLmx(parseLmx('<Component componentId="self" />').document, { components: new Map([['self', nesting]]) });
    expect(nestedComponents).toEqual(['self']);
    expect(html.match(/outer/g)).toHaveLength(1);
  });
});
