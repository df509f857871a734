/**
 * The review as one self-contained HTML page (`content review --out review.html`): each email
 * reported, before and after, at 600 and at 375 px, the blocks that changed outlined on both
 * sides, its subject, preview text, sender and plain text as word diffs, the variables and check
 * findings that come and go. The page reads nothing from the network: its policy is
 * `default-src 'none'` with inline styles and `data:` images alone and one script, its own, allowed
 * by its hash; each email's images are placeholders of their size, or, with --allow-network, the
 * images loopsctl fetched when it wrote the page, inside it (embedded-images.ts). Each email is drawn in a frame of its own (srcdoc, sandboxed), so its width is
 * a real viewport's and its own styles (the columns that stack on a phone) apply as in a client;
 * the page's script makes each frame as tall as its email (FIT_SCRIPT), and without it (scripts
 * off) each frame keeps a fixed height and scrolls.
 */
import { createHash } from 'node:crypto';
import { diffWords } from 'diff';
import { type ImageLoader, type PageImage, placeholderImages } from '../../../base/page-images.js';
import type { Uses } from '../../../core/capabilities.js';
import { graded } from '../../../lmx/qa/finding.js';
import { escapeHtml } from '../../../lmx/render/index.js';
import { countOf } from '../../../render/numbers.js';
import type { ImpactRecord } from '../../change/impact/records.js';
import { renderImpact } from '../../change/impact/render.js';
import { bodyOf, bodyText } from './blocks.js';
import { callSiteWords } from './call-sites.js';
import type { Review, ReviewedEmail } from './compare.js';
import { EmbeddedImages, fetchPageImages } from './embedded-images.js';
import type { BlockChange } from './pairs.js';
import type { SideEmail } from './sides.js';
import { accessibilityOf, blockWords, summaryOf, whatChanged } from './words.js';

/** The summary's count of the accessibility findings the change brings, by impact. */
function accessibilityLine(review: Review): string {
  const line = accessibilityOf(review);
  return line === undefined ? '' : `<p>${escapeHtml(line)}</p>`;
}

/** The emails a page holds; past that, further pages (review-2.html, …) each hold as many, and the first lists them all. */
export const EMAILS_PER_PAGE = 50;

export interface PageOptions {
  /**
   * The emails' images, fetched by loopsctl as the page is written (--allow-network), which the page
   * holds; without, each image is a placeholder of its size.
   */
  images?: ReadonlyMap<string, PageImage>;
  /** What was compared with what: `origin/main (3f2a1c9) → the working tree`. */
  between: string;
  /** The file names of the pages, the first the one --out named. */
  files: string[];
  /** Screenshots by email path, when a browser took them (screenshots.ts). */
  pictures?: Pictures;
  /** A plan's impact (sends so far of a node it changes, contacts waiting), as the plan carries it. */
  impact?: readonly ImpactRecord[];
}

/** A region of a screenshot that changed: a changed block where the browser laid it out, in CSS pixels from the top left. */
export interface Box {
  change: BlockChange['change'];
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One side of an email drawn by a browser at one width: the PNG and its changed regions. */
export interface Shot {
  width: number;
  height: number;
  png: Buffer;
  boxes: Box[];
}

/** The screenshots of each email, by its path: each side's, widest first. */
export type Pictures = Map<string, { before: Shot[]; after: Shot[] }>;

export const WIDTHS = [600, 375] as const;

const OUTLINE: Record<BlockChange['change'], string> = { changed: '#d97706', added: '#16a34a', removed: '#dc2626', moved: '#2563eb' };

/**
 * The page's one script: once the page and its frames have loaded (and when a <details> opens,
 * showing frames that were hidden), each email's frame is made as tall as its document, measured
 * with the frame at no height so that the frame's own height does not count. It reads each frame's
 * document, which the frame's sandbox allows by `allow-same-origin`; it writes nothing there.
 */
export const FIT_SCRIPT =
  "(()=>{const fit=()=>{for(const frame of document.querySelectorAll('iframe[data-fit]')){const doc=frame.contentDocument;" +
  'if(doc===null||doc.documentElement===null||frame.getClientRects().length===0)continue;const borders=frame.offsetHeight-frame.clientHeight;' +
  "frame.style.height='0px';frame.style.height=`${doc.documentElement.scrollHeight+borders}px`}};" +
  "addEventListener('load',fit);document.addEventListener('toggle',fit,true)})();";

/** The page's content security policy: nothing but its own inline styles and `data:` images (never one from the web), and FIT_SCRIPT by its hash. */
export function policyOf(): string {
  const script = createHash('sha256').update(FIT_SCRIPT).digest('base64');
  return `default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-src 'self' about: data:; script-src 'sha256-${script}'`;
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2937;background:#f9fafb}
header,section,nav{padding:16px 20px;overflow-wrap:anywhere}
code{overflow-wrap:anywhere;word-break:break-all}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:0}
.muted{color:#6b7280;font-size:13px}
.email{border-top:1px solid #e5e7eb;background:#fff;margin:0 0 16px}
.tag{display:inline-block;border-radius:4px;padding:0 6px;font-size:12px;background:#e5e7eb;margin-left:6px}
.tag.added{background:#dcfce7}.tag.removed{background:#fee2e2}.tag.changed{background:#fef3c7}.tag.moved{background:#dbeafe}
ul.blocks{list-style:none;margin:0;padding:0}ul.blocks li{margin:2px 0}ul.blocks .tag{margin:0 6px 0 0}
table.fields{border-collapse:collapse;margin:8px 0;max-width:100%}
table.fields th{text-align:left;vertical-align:top;padding:2px 12px 2px 0;font-weight:600;white-space:nowrap}
table.fields td{padding:2px 0;overflow-wrap:anywhere}
del{background:#fee2e2;color:#991b1b}ins{background:#dcfce7;color:#166534;text-decoration:none}
.sides{display:flex;flex-wrap:wrap;gap:16px;margin-top:8px}
.side{overflow-x:auto;max-width:100%}
.side h3{font-size:13px;margin:0 0 4px;font-weight:600}
iframe{border:1px solid #d1d5db;background:#fff;height:640px;display:block}
.none{border:1px dashed #d1d5db;color:#6b7280;display:flex;align-items:center;justify-content:center;height:120px}
.broken{color:#991b1b;font-size:13px}
.shot{margin:0}.shot .picture{position:relative;display:inline-block;max-width:100%;border:1px solid #d1d5db}
.shot img{display:block;max-width:100%;height:auto}
.box{position:absolute;border:3px solid;pointer-events:none}
pre.plain{white-space:pre-wrap;font:13px/1.5 ui-monospace,Menlo,Consolas,monospace;background:#f3f4f6;padding:8px;margin:4px 0}
.modes label{margin-right:12px;font-size:13px;cursor:pointer;text-decoration:underline dotted}
#light:checked~header label[for=light],#dark-full:checked~header label[for=dark-full],#dark-partial:checked~header label[for=dark-partial]{font-weight:700;text-decoration:none}
#dark-full:checked~main iframe,#dark-full:checked~main .shot img{filter:invert(1) hue-rotate(180deg)}
#dark-partial:checked~main iframe,#dark-partial:checked~main .shot img{filter:invert(.86) hue-rotate(180deg) contrast(.92)}
.legend span{display:inline-block;width:12px;height:12px;margin:0 4px -1px 10px;border:3px solid}
table.list{border-collapse:collapse}table.list td,table.list th{padding:2px 10px 2px 0;text-align:left;vertical-align:top}
@media (max-width:700px){header,section,nav{padding:12px}}
`;

/** The HTML of each page of the review, in order: the first lists every email, each holds its share of them. */
export function reviewPages(review: Review, options: PageOptions): string[] {
  const pages = Math.max(1, Math.ceil(review.emails.length / EMAILS_PER_PAGE));
  return Array.from({ length: pages }, (_, index) => page(review, options, index, pages));
}

/**
 * The review's pages written, the first where `out` names, never through a link; the files
 * written. With `load` (--allow-network), each page's images are fetched through it and put inside the page.
 */
export async function writePages(
  context: Uses<'files'>,
  review: Review,
  out: string,
  options: Omit<PageOptions, 'files' | 'images'> & { load?: ImageLoader },
): Promise<string[]> {
  const { load, ...rest } = options;
  const pages = Math.max(1, Math.ceil(review.emails.length / EMAILS_PER_PAGE));
  const files = pageFiles(out, pages);
  const { writeOut } = await import('../render-commands.js');
  for (let index = 0; index < pages; index += 1) {
    const shown = review.emails.slice(index * EMAILS_PER_PAGE, (index + 1) * EMAILS_PER_PAGE);
    const htmls = shown.flatMap((email) => (['before', 'after'] as const).flatMap((side) => (email[side] === undefined ? [] : [markedHtml(email, side)])));
    const images = load === undefined ? undefined : await fetchPageImages(htmls, load);
    await writeOut(context, files[index]!, page(review, { ...rest, files, ...(images === undefined ? {} : { images }) }, index, pages));
  }
  return files;
}

/** The file name of each page: `review.html`, then `review-2.html`, beside it. */
export function pageFiles(out: string, count: number): string[] {
  const dot = out.lastIndexOf('.');
  const [stem, extension] = dot > out.lastIndexOf('/') ? [out.slice(0, dot), out.slice(dot)] : [out, ''];
  return Array.from({ length: count }, (_, index) => (index === 0 ? out : `${stem}-${index + 1}${extension}`));
}

const baseName = (file: string) => file.slice(file.lastIndexOf('/') + 1);

/** How a page draws its emails' images: inside it, as fetched, or as placeholders. */
type DrawImages = (html: string) => string;

/** What an image offline is said to be, in its placeholder. */
const OFFLINE = 'image not loaded (offline)';

function page(review: Review, options: PageOptions, index: number, pages: number): string {
  const emails = review.emails.slice(index * EMAILS_PER_PAGE, (index + 1) * EMAILS_PER_PAGE);
  const embedded = options.images === undefined ? undefined : new EmbeddedImages(options.images);
  const drawImages: DrawImages = embedded === undefined ? offlineImages : (html) => embedded.draw(html);
  // Drawn first: the header lists the images they could not hold.
  const sections = emails.map((email, at) => section(email, index * EMAILS_PER_PAGE + at, options, drawImages));
  const nav =
    pages === 1
      ? ''
      : `<nav>Page ${index + 1} of ${pages}: ${options.files.map((file, at) => (at === index ? `<b>${at + 1}</b>` : `<a href="${escapeHtml(baseName(file))}">${at + 1}</a>`)).join(' ')}</nav>`;
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    // The policy is loopsctl's own text, quoted as it is: its single quotes need no escaping in a double-quoted attribute.
    `<meta http-equiv="Content-Security-Policy" content="${policyOf()}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<title>Email review: ${escapeHtml(summaryOf(review))}</title>`,
    `<style>${STYLE}</style></head><body>`,
    '<input type="radio" name="mode" id="light" checked hidden><input type="radio" name="mode" id="dark-full" hidden><input type="radio" name="mode" id="dark-partial" hidden>',
    '<header>',
    '<h1>Email review</h1>',
    `<p>${escapeHtml(summaryOf(review))}</p>`,
    accessibilityLine(review),
    `<p class="muted">${escapeHtml(options.between)} · review digest <code>${review.digest}</code></p>`,
    '<p class="muted">A local preview drawn by loopsctl from LMX, as <code>content render</code> draws it: not the exact HTML the Loops platform sends.',
    embedded === undefined
      ? ' Images are placeholders of their size: the page reads nothing from the network (--allow-network loads them).'
      : ' Images were fetched by loopsctl when it wrote the page, and are inside it (never one at a loopback, private or reserved address, unless --allow-private-links): the page reads nothing from the network.',
    options.pictures === undefined
      ? ' Each email is drawn in a frame by the browser that opens this page; <code>--screenshots</code> adds pictures drawn by Chromium, the changed regions boxed.'
      : ' The screenshots were drawn by Chromium; the regions boxed are the blocks that changed.',
    '</p>',
    embedded?.listed() ?? '',
    '<p class="modes muted">Show: <label for="light">light</label><label for="dark-full">dark, full inversion (an approximation of the Gmail apps, not their rendering)</label><label for="dark-partial">dark, partial inversion (an approximation of Outlook.com, not its rendering)</label></p>',
    `<p class="legend muted">Blocks outlined:<span style="border-color:${OUTLINE.changed}"></span>changed<span style="border-color:${OUTLINE.added}"></span>added<span style="border-color:${OUTLINE.removed}"></span>removed<span style="border-color:${OUTLINE.moved}"></span>moved</p>`,
    index === 0 && pages > 1 ? overview(review, options.files) : '',
    options.impact === undefined || options.impact.length === 0
      ? ''
      : `<details><summary>What the plan does to people and the app</summary><pre class="plain">${escapeHtml(renderImpact(options.impact))}</pre></details>`,
    '</header>',
    nav,
    '<main>',
    ...sections,
    '</main>',
    nav,
    `<script>${FIT_SCRIPT}</script>`,
    '</body></html>',
    '',
  ].join('\n');
}

/** The first page of several: every email, and the page it is on. */
function overview(review: Review, files: string[]): string {
  const rows = review.emails.map((email, at) => {
    const file = baseName(files[Math.floor(at / EMAILS_PER_PAGE)]!);
    return `<tr><td><a href="${escapeHtml(file)}#email-${at + 1}">${escapeHtml(email.name)}</a></td><td>${email.kind}</td><td>${email.change}</td><td>${escapeHtml(whatChanged(email))}</td></tr>`;
  });
  return `<details><summary>All ${countOf(review.emails.length, 'email')}</summary><table class="list"><tr><th>Email</th><th>Kind</th><th>Change</th><th>What changed</th></tr>${rows.join('')}</table></details>`;
}

function section(email: ReviewedEmail, at: number, options: PageOptions, drawImages: DrawImages): string {
  const { before, after } = email;
  const fields: [string, string, string][] = [
    ['Subject', before?.subject ?? '', after?.subject ?? ''],
    ['Preview text', before?.previewText ?? '', after?.previewText ?? ''],
    ['From', before?.from ?? '', after?.from ?? ''],
  ];
  const plain = (side: SideEmail | undefined) => (side === undefined ? '' : bodyText(side.view));
  const variables = [
    ...email.variables.added.map((name) => `<ins>+ {${escapeHtml(name)}}</ins>`),
    ...email.variables.removed.map((name) => `<del>− {${escapeHtml(name)}}</del>`),
  ];
  const findings = [
    ...email.findings.appeared.map((finding) => `<li>new ${graded(finding)}: ${escapeHtml(finding.message)} <code>${escapeHtml(finding.rule)}</code></li>`),
    ...email.findings.disappeared.map((finding) => `<li>gone ${graded(finding)}: ${escapeHtml(finding.message)} <code>${escapeHtml(finding.rule)}</code></li>`),
  ];
  const picture = options.pictures?.get(email.path);
  return [
    `<section class="email" id="email-${at + 1}">`,
    `<h2>${escapeHtml(email.name)}<span class="tag">${email.kind}</span><span class="tag ${email.change}">${email.change}</span></h2>`,
    `<p class="muted"><code>${escapeHtml(email.path)}</code> · ${escapeHtml(whatChanged(email))}</p>`,
    '<table class="fields">',
    ...fields.map(([label, was, is]) => `<tr><th>${label}</th><td>${wordDiff(was, is)}</td></tr>`),
    variables.length === 0 ? '' : `<tr><th>Variables</th><td>${variables.join(' ')}</td></tr>`,
    email.blocks.length === 0 ? '' : `<tr><th>Blocks</th><td>${blockList(email)}</td></tr>`,
    email.kind === 'workflow' ? `<tr><th>Sent by nodes</th><td>${wordDiff(before?.nodes.join(', ') ?? '', after?.nodes.join(', ') ?? '')}</td></tr>` : '',
    '</table>',
    findings.length === 0 ? '' : `<p>Findings of <code>content check</code>:</p><ul>${findings.join('')}</ul>`,
    email.callSites === undefined
      ? ''
      : `<p>Sent by the app (<code>--code</code>): ${email.callSites.length === 0 ? 'no send of it found' : ''}</p>${email.callSites.length === 0 ? '' : `<ul>${email.callSites.map((site) => `<li><code>${escapeHtml(callSiteWords(site))}</code></li>`).join('')}</ul>`}`,
    impactOf(email, options.impact),
    `<details><summary>Plain text</summary><pre class="plain">${wordDiff(plain(before), plain(after))}</pre></details>`,
    ...(picture === undefined
      ? frames(email, drawImages)
      : [...screenshots(picture), `<details><summary>As HTML, in frames</summary>${frames(email, drawImages).join('\n')}</details>`]),
    '</section>',
  ].join('\n');
}

/** The blocks that changed, each as the review's other views say it, the tag coloured as its outline. */
function blockList(email: ReviewedEmail): string {
  const items = email.blocks.map((block) => {
    const { how, which } = blockWords(block);
    return `<li data-block-change="${block.change}"><span class="tag ${block.change}">${escapeHtml(how)}</span>${escapeHtml(which)}</li>`;
  });
  return `<ul class="blocks">${items.join('')}</ul>`;
}

/** The plan's impact on the email's record (a workflow's, for a workflow email), or nothing. */
function impactOf(email: ReviewedEmail, impact: readonly ImpactRecord[] | undefined): string {
  const record = email.kind === 'workflow' ? email.path.split('/').slice(0, 2).join('/') : email.path;
  const own = (impact ?? []).filter((entry) => entry.record === record);
  return own.length === 0 ? '' : `<pre class="plain">${escapeHtml(renderImpact(own))}</pre>`;
}

function frames(email: ReviewedEmail, drawImages: DrawImages): string[] {
  return WIDTHS.map((width) => `<div class="sides">${frame(email, 'before', width, drawImages)}${frame(email, 'after', width, drawImages)}</div>`);
}

/** Each width's screenshots, before and after side by side, each changed region boxed over the picture. */
function screenshots(picture: { before: Shot[]; after: Shot[] }): string[] {
  const shot = (label: string, drawn: Shot | undefined, width: number) => {
    const title = `${label}, ${width} px`;
    if (drawn === undefined)
      return `<div class="side" style="width:${width}px"><h3>${title}</h3><div class="none">${label === 'Before' ? 'a new email: none before' : 'removed: none after'}</div></div>`;
    const percent = (value: number, of: number) => `${((100 * value) / of).toFixed(3)}%`;
    const boxes = drawn.boxes.map(
      (box) =>
        `<span class="box" data-box="${box.change}" style="left:${percent(box.x, drawn.width)};top:${percent(box.y, drawn.height)};width:${percent(box.width, drawn.width)};height:${percent(box.height, drawn.height)};border-color:${OUTLINE[box.change]}"></span>`,
    );
    return `<figure class="side shot" data-width="${width}"><h3>${title}, screenshot</h3><div class="picture"><img alt="${title}" width="${drawn.width}" height="${drawn.height}" src="data:image/png;base64,${drawn.png.toString('base64')}">${boxes.join('')}</div></figure>`;
  };
  return WIDTHS.map((width) => {
    const at = (shots: Shot[]) => shots.find((drawn) => drawn.width === width);
    return `<div class="sides">${shot('Before', at(picture.before), width)}${shot('After', at(picture.after), width)}</div>`;
  });
}

/** One side of an email in a frame of the given width, its changed blocks outlined; or why there is none. */
function frame(email: ReviewedEmail, side: 'before' | 'after', width: number, drawImages: DrawImages): string {
  const drawn = email[side];
  const label = `${side === 'before' ? 'Before' : 'After'}, ${width} px`;
  if (drawn === undefined)
    return `<div class="side" style="width:${width}px"><h3>${label}</h3><div class="none">${side === 'before' ? 'a new email: none before' : 'removed: none after'}</div></div>`;
  const broken =
    drawn.errors.length === 0
      ? ''
      : `<p class="broken">Its LMX does not compile on this side (${countOf(drawn.errors.length, 'error')}: ${escapeHtml(drawn.errors[0]!.message)}); drawn as far as it could be read.</p>`;
  const html = drawImages(markedHtml(email, side));
  // `allow-same-origin` without `allow-scripts`: the email runs no script of its own (nor does the
  // page's policy, which srcdoc inherits, allow one), so its being of the page's origin gives it
  // nothing it can do; it lets the page's FIT_SCRIPT read the frame's height, and nothing more.
  return `<div class="side"><h3>${label}</h3>${broken}<iframe title="${escapeHtml(`${email.name}: ${label}`)}" sandbox="allow-same-origin" data-fit width="${width}" style="width:${width + 2}px" srcdoc="${escapeHtml(html)}"></iframe></div>`;
}

/**
 * An email's HTML with its changed blocks marked (data-review-change, outlined unless a screenshot
 * boxes them itself); its images as the email names them.
 */
export function markedHtml(email: ReviewedEmail, side: 'before' | 'after', outline = true): string {
  const drawn = email[side]!;
  const body = bodyOf(drawn.view);
  const marks = new Map<number, BlockChange['change']>();
  for (const block of email.blocks) {
    const index = block[side];
    if (index !== undefined) marks.set(index, block.change);
  }
  const blocks = body.blocks.map(({ html }, index) => {
    const change = marks.get(index);
    if (change === undefined) return html;
    return `<div data-review-change="${change}"${outline ? ` style="outline:2px solid ${OUTLINE[change]};outline-offset:-2px"` : ''}>${html}</div>`;
  });
  return body.before === '' ? blocks.join('') : `${body.before}${blocks.join('')}${body.after}`;
}

/** Every image whose address is on the web, drawn as a placeholder of its width (and the height its attribute gives, else half the width). */
export function offlineImages(html: string): string {
  return placeholderImages(html, OFFLINE);
}

/** Two texts as one, the words removed struck and those added marked; the same text as it is. */
export function wordDiff(before: string, after: string): string {
  if (before === after) return escapeHtml(after);
  return diffWords(before, after)
    .map((part) => (part.added ? `<ins>${escapeHtml(part.value)}</ins>` : part.removed ? `<del>${escapeHtml(part.value)}</del>` : escapeHtml(part.value)))
    .join('');
}
