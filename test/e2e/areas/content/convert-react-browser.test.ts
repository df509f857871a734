/**
 * The layout model held to React Email's own rendering: each React Email template of the corpus
 * (react-email/, react-email-1.2/ and react-email-proofkit/, as test/support/convert-corpus.ts lays
 * them out from their packages) is rendered by `@react-email/components`' renderer, here in the test, where
 * running the template is the point (convert itself never runs one), and drawn in Chromium at 600
 * and 375 px. Each JSX element is marked with its place in the source before it is
 * rendered (`data-lc`, which React Email's components pass on to the element they draw), and the
 * content box of every element a converted block stands in is compared with the box convert's
 * model of the source (src/convert/layout/layout.ts) computes for it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertDocument } from '../../../../src/convert/document.js';
import { LAYOUT_TOLERANCE, VIEWPORTS } from '../../../../src/convert/layout/layout-compare.js';
import { Findings } from '../../../../src/convert/model.js';
import { readReact } from '../../../../src/convert/sources/react-source.js';
import { describeBrowser } from '../../../support/browser.js';
import { corpusDirectory } from '../../../support/convert-corpus.js';
import { measureBoxes, pairs } from '../../../support/convert-layout.js';
import { tempDir } from '../../../support/main.js';
import { renderAll } from '../../../support/react-render.js';

const CORPUS = corpusDirectory();

const files = ['react-email', 'react-email-1.2', 'react-email-proofkit']
  .flatMap((folder) =>
    readdirSync(join(CORPUS, folder))
      .filter((file) => file.endsWith('.tsx'))
      .map((file) => `${folder}/${file}`),
  )
  .sort();

describe('the layout model against React Email’s renderer and Chromium, on the corpus', () => {
  const chromium = describeBrowser();

  it('places every block’s box where the browser draws React Email’s rendering, within a few pixels, at 600 and 375 px', async (context) => {
    const browser = chromium(context, 'the layout model against React Email’s renderer');
    const directory = tempDir('loopsctl-react-render-');
    const page = await browser.page(VIEWPORTS[0], 800);
    const renderings = await renderAll(CORPUS, files, directory);
    let measured = 0;
    const off: string[] = [];
    const unrendered: string[] = [];
    for (const [at, file] of files.entries()) {
      const findings = new Findings();
      const document = readReact(readFileSync(join(CORPUS, file), 'utf8'), file, findings);
      const { blocks } = convertDocument(document, 'transactional', findings);
      const paired = pairs(blocks);
      const html = renderings[at]!;
      if (html instanceof Error) {
        unrendered.push(`${file}: ${html.message.split('\n')[0]}`);
        continue;
      }
      for (const { width, place, model, browser: drawn } of await measureBoxes(page, html, document.body, paired, VIEWPORTS)) {
        if (drawn === undefined) continue;
        measured += 1;
        if (Math.abs(model.left - drawn.left) > LAYOUT_TOLERANCE || Math.abs(model.right - drawn.right) > LAYOUT_TOLERANCE)
          off.push(
            `${file} ${place} at ${width}: model ${Math.round(model.left)}–${Math.round(model.right)}, Chromium ${Math.round(drawn.left)}–${Math.round(drawn.right)}`,
          );
      }
    }
    console.log(`${measured} boxes measured, ${off.length} apart; not rendered: ${unrendered.join('; ') || 'none'}\n${off.join('\n')}`);
    expect(unrendered).toEqual([]);
    // Measured: 180 boxes in the 10 templates (React Email's four starters as create-email 0.0.24 and 1.2.5 ship them,
    // ProofKit's two), none apart.
    expect(measured).toBeGreaterThan(170);
    expect(off).toEqual([]);
  }, 180_000);
});
