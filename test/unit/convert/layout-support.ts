/** An email source converted as `content convert` does, and its LMX rendered as `content render` does: what the tests of layout read. */
import { convertDocument } from '../../../src/convert/document.js';
import { compareLayout } from '../../../src/convert/layout/layout-compare.js';
import { Findings } from '../../../src/convert/model.js';
import { readHtml } from '../../../src/convert/sources/html-source.js';
import { readMjml } from '../../../src/convert/sources/mjml-source.js';
import { readReact } from '../../../src/convert/sources/react-source.js';
import { parseLmx } from '../../../src/lmx/index.js';
import { renderLmx } from '../../../src/lmx/render/index.js';

export interface Converted {
  lmx: string;
  html: string;
  /** The rendered email's visible text, white space collapsed. */
  text: string;
  findings: Findings;
  /** The preview text the reader took (the hidden preheader). */
  previewText: string | undefined;
}

function converted(read: (findings: Findings) => ReturnType<typeof readHtml>): Converted {
  const findings = new Findings();
  const source = read(findings);
  const { lmx, previewText, style, blocks } = convertDocument(source, 'transactional', findings);
  // What stands elsewhere than in the source is listed, as content convert lists it.
  compareLayout(source.body, style, blocks, findings);
  const { document, problems } = parseLmx(lmx);
  if (problems.some((problem) => problem.severity === 'error')) throw new Error(`the LMX does not parse: ${JSON.stringify(problems)}\n${lmx}`);
  const { html } = renderLmx(document);
  const body = html.slice(html.indexOf('<body'));
  const text = body
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, ' ')
    .trim();
  return { lmx, html, text, findings, previewText };
}

export const fromReact = (source: string) => converted((findings) => readReact(source, 'email.tsx', findings));
export const fromHtml = (source: string) => converted((findings) => readHtml(source, 'email.html', findings));
export const fromMjml = (source: string) =>
  converted((findings) => readMjml(source, 'email.mjml', findings, { readInclude: () => ({ file: '', source: '' }) }));
