/**
 * The page `content preview` serves: the directory's emails and components in a list by kind, the
 * chosen one drawn at desktop (600 px) and mobile (375 px) width side by side, its check results,
 * what the drawing could not fill, and a form of sample values. Everything shown from the files is
 * HTML-escaped; the page runs one script of its own (preview.js), which follows the server's
 * change events and saves the sample values.
 */
import { GMAIL_CLIP_BYTES, kilobytes } from '../../lmx/index.js';
import { graded, impactCounts } from '../../lmx/qa/finding.js';
import { escapeHtml } from '../../lmx/render/index.js';
import { DEVICE_WIDTHS, deviceFrame, deviceFrames, topBar, VIEWER_CSS, viewerScript } from '../../lmx/viewer.js';
import { countOf } from '../../render/numbers.js';
import type { CheckProblem } from './shared/check.js';
import type { TreeGroup } from './shared/lmx-files.js';
import type { TreeEmail } from './shared/tree.js';

const GROUP_TITLES: Record<TreeGroup | 'files', string> = {
  transactional: 'Transactional emails',
  campaigns: 'Campaigns',
  components: 'Components',
  themes: 'Themes',
  workflows: 'Workflow emails',
  files: 'LMX files',
};

/** An email of the list, with how its check went. */
export interface ListedEmail extends TreeEmail {
  errors: number;
  warnings: number;
}

/** One variable of the form: its value as saved, and the fallback the email message has for it. */
export interface SampleField {
  /** `data.firstName` */
  name: string;
  value: string;
  fallback?: string;
}

export interface ShownEmail {
  email: TreeEmail;
  problems: CheckProblem[];
  notes: string[];
  fields: SampleField[];
  /** The values file, from the directory: `transactional/welcome--cx1/.draft.values.json`. */
  valuesPath: string;
  /** Changes with every change of the directory, so the frames load the new drawing. */
  version: number;
  /** The size of the rendered HTML, which Gmail clips past 102 KB. */
  htmlBytes: number;
  /** With --compare: the original email's name, drawn beside the converted one. */
  original?: string;
}

const href = (path: string) => `/?email=${encodeURIComponent(path)}`;
const frameSrc = (path: string, version: number) => `/email.html?path=${encodeURIComponent(path)}&v=${version}`;

function badge(email: ListedEmail): string {
  if (email.errors > 0) return `<span class="badge error" title="${countOf(email.errors, 'error')}">${email.errors}</span>`;
  if (email.warnings > 0) return `<span class="badge warning" title="${countOf(email.warnings, 'warning')}">${email.warnings}</span>`;
  return '<span class="badge ok" title="no problems">✓</span>';
}

function list(emails: ListedEmail[], current: string | undefined): string {
  if (emails.length === 0) return '<p class="empty">No .lmx files here yet.</p>';
  const groups = new Map<string, ListedEmail[]>();
  for (const email of emails) groups.set(email.group ?? 'files', [...(groups.get(email.group ?? 'files') ?? []), email]);
  return [...groups]
    .map(
      ([group, members]) =>
        `<h2>${escapeHtml(GROUP_TITLES[group as TreeGroup | 'files'])}</h2><ul>${members
          .map(
            (email) =>
              `<li><a href="${escapeHtml(href(email.path))}"${email.path === current ? ' aria-current="page"' : ''} title="${escapeHtml(email.path)}">${badge(email)}<span class="name">${escapeHtml(email.name)}</span></a></li>`,
          )
          .join('')}</ul>`,
    )
    .join('');
}

/**
 * The check's findings, each with its severity and, for an accessibility finding, its impact
 * (`warning (serious)`, as `content check` and `content review` say it), and those counted by impact.
 */
function problemsPanel(problems: CheckProblem[]): string {
  if (problems.length === 0) return '<p class="clean">✓ No problems: this LMX follows the specification.</p>';
  const errors = problems.filter((problem) => problem.severity === 'error').length;
  const summary = `${countOf(errors, 'error')}, ${countOf(problems.length - errors, 'warning')}`;
  const accessibility = problems.some((problem) => problem.impact !== undefined)
    ? `<p class="accessibility">Accessibility: ${impactCounts(problems)}.</p>`
    : '';
  const items = problems
    .map(
      (problem) =>
        `<li class="${problem.severity}"${problem.impact === undefined ? '' : ` data-impact="${problem.impact}"`}><div><span class="where">line ${problem.line}, column ${problem.column}</span> <code class="rule">${escapeHtml(problem.rule)}</code> <span class="grade">${graded(problem)}</span></div><div class="message">${escapeHtml(problem.message)}</div><div class="fix">Fix: ${escapeHtml(problem.fix)}</div></li>`,
    )
    .join('');
  return `<p class="summary">${summary}</p>${accessibility}<ul class="problems">${items}</ul>`;
}

/** The HTML's size against Gmail's clip. */
function sizeLine(bytes: number): string {
  const clipped = bytes > GMAIL_CLIP_BYTES;
  return `<p class="size${clipped ? ' over' : ''}" data-bytes="${bytes}">HTML ${kilobytes(bytes)} of the ${kilobytes(GMAIL_CLIP_BYTES)} Gmail shows whole${clipped ? ': Gmail clips this email' : ''}</p>`;
}

function notesPanel(notes: string[]): string {
  const items = notes.map((note) => `<li>${escapeHtml(note)}</li>`).join('');
  return `<section class="card" id="notes" data-live${notes.length === 0 ? ' hidden' : ''}><h3>Preview notes</h3><ul class="notes">${items}</ul></section>`;
}

function form(shown: ShownEmail): string {
  const { fields } = shown;
  const variables = fields.map((field) => field.name).join(' ');
  if (fields.length === 0)
    return `<section class="card" id="values" data-live data-keep=""><h3>Sample values</h3><p class="muted">This email uses no variables.</p></section>`;
  const inputs = fields
    .map((field, index) => {
      const id = `value-${index}`;
      const placeholder = field.fallback === undefined ? 'no value: shown as written' : `fallback: ${field.fallback}`;
      return `<label for="${id}"><code>{${escapeHtml(field.name)}}</code></label><input id="${id}" name="${escapeHtml(field.name)}" value="${escapeHtml(field.value)}" placeholder="${escapeHtml(placeholder)}" autocomplete="off">`;
    })
    .join('');
  return `<section class="card" id="values" data-live data-keep="${escapeHtml(variables)}"><h3>Sample values</h3>
<form id="values-form" data-path="${escapeHtml(shown.email.path)}">${inputs}<div class="actions"><button type="submit">Save and redraw</button><span id="saved" role="status"></span></div></form>
<p class="muted">Kept in <code>${escapeHtml(shown.valuesPath)}</code>, for this email only. Nothing is sent.</p></section>`;
}

function shownPart(shown: ShownEmail | undefined): string {
  if (shown === undefined) {
    return '<section class="intro"><h1>Nothing to show yet</h1><p>This directory has no .lmx files. Pull your account\'s content with <code>loopsctl content pull</code>, or start the preview in a folder of .lmx files. The page follows the files: new ones appear here as soon as they are saved.</p></section>';
  }
  const { email } = shown;
  const kind =
    email.kind === undefined
      ? 'LMX file, of no known kind: its variables are not checked'
      : email.kind === 'component'
        ? 'Component'
        : `${email.kind[0]!.toUpperCase()}${email.kind.slice(1)} email`;
  return `<section class="email-head"><h1>${escapeHtml(email.name)}</h1><p class="muted">${escapeHtml(kind)} · <code>${escapeHtml(email.path)}</code></p></section>
<div class="workspace"><div class="frames${shown.original === undefined ? '' : ' compare'}" id="frames" data-live>${framesOf(shown)}</div>
<aside class="side"><section class="card" id="checks" data-live><h3>Check</h3>${problemsPanel(shown.problems)}${sizeLine(shown.htmlBytes)}</section>${notesPanel(shown.notes)}${form(shown)}</aside></div>`;
}

/**
 * The email's frames; with --compare, the original beside the converted email at each width (a
 * pair at 600 px, then one at 375 px), each caption saying which it is, stacked where the room is
 * narrower than two frames can be told apart in (PREVIEW_CSS).
 */
function framesOf(shown: ShownEmail): string {
  const src = frameSrc(shown.email.path, shown.version);
  const { original } = shown;
  if (original === undefined) return deviceFrames(src, shown.email.name);
  const pair = (width: (typeof DEVICE_WIDTHS)[number]) =>
    `<div class="pair">${deviceFrame(`/original.html?v=${shown.version}`, original, width, { id: 'original', label: `Original: ${original}` })}${deviceFrame(src, shown.email.name, width, { label: `Converted: ${shown.email.path}` })}</div>`;
  return DEVICE_WIDTHS.map(pair).join('');
}

/** The whole page. */
export function previewPage(directory: string, emails: ListedEmail[], shown: ShownEmail | undefined): string {
  const title = shown === undefined ? 'loopsctl preview' : `${shown.email.name} · loopsctl preview`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="/preview.css">
<script src="/preview.js" defer></script>
</head>
<body>
${topBar('loopsctl <strong>content preview</strong>', directory, 'Live: the page follows your edits')}
<div class="layout">
<nav id="emails" data-live aria-label="Emails and components">${list(emails, shown?.email.path)}</nav>
<main id="main" data-live data-keep="${escapeHtml(shown?.email.path ?? '')}">${shownPart(shown)}
<p class="disclaimer">A local preview drawn by loopsctl from LMX: close to what the platform sends, not its exact HTML. Nothing here is sent, and nothing in the account changes.</p>
</main>
</div>
</body>
</html>
`;
}

/** The room (px) below which an original and its converted email are drawn one above the other: two 375 px frames side by side, and their gap. */
export const STACKED_BELOW = 2 * 375 + 20;

export const PREVIEW_CSS = `${VIEWER_CSS}
.frames.compare{flex:1 1 100%;flex-direction:column;flex-wrap:nowrap;container-type:inline-size}
.frames.compare .pair{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:20px;width:100%;align-items:start}
@container (max-width:${STACKED_BELOW - 1}px){.frames.compare .pair{grid-template-columns:minmax(0,1fr)}}
nav{flex:0 0 220px;padding:12px 10px}
nav h2{margin:14px 10px 6px;font-size:11px;letter-spacing:.06em;text-transform:uppercase;color:#6b7280}
nav ul{list-style:none;margin:0;padding:0}
nav a{display:flex;align-items:center;gap:8px;padding:6px 10px;border-radius:6px;color:#1f2937;text-decoration:none}
nav a:hover{background:#f3f4f6}nav a[aria-current=page]{background:#e0e7ff;color:#1e1b4b;font-weight:600}
nav .name{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.top .where{font-family:ui-monospace,Menlo,Consolas,monospace}
.badge{flex:0 0 auto;min-width:20px;height:20px;padding:0 6px;border-radius:10px;font-size:11px;line-height:20px;text-align:center;font-weight:600}
.badge.ok{background:#dcfce7;color:#166534}.badge.warning{background:#fef3c7;color:#92400e}.badge.error{background:#fee2e2;color:#991b1b}
.clean{margin:0;color:#166534}.summary{margin:0 0 8px;font-weight:600}
.problems,.notes{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:8px}
.problems li{padding:8px 10px;border-radius:6px;border-left:3px solid}
.problems li.error{background:#fef2f2;border-color:#dc2626}.problems li.warning{background:#fffbeb;border-color:#d97706}
.problems .where{font-weight:600}.problems .rule{color:#6b7280}.problems .fix{color:#4b5563;margin-top:2px}
.problems .grade{font-size:12px;color:#6b7280;white-space:nowrap}
.problems [data-impact=critical] .grade,.problems [data-impact=serious] .grade{color:#991b1b;font-weight:600}
.accessibility{margin:0 0 8px;color:#4b5563}
.notes li{padding:6px 10px;background:#f9fafb;border-radius:6px}
.size{margin:10px 0 0;color:#4b5563;font-size:12.5px}.size.over{color:#b91c1c;font-weight:600}
form{display:grid;grid-template-columns:auto 1fr;gap:8px 10px;align-items:center}
form label code{color:#4338ca}
form input{width:100%;padding:6px 8px;border:1px solid #d1d5db;border-radius:6px;font:inherit}
form input:focus{outline:2px solid #6366f1;outline-offset:-1px;border-color:#6366f1}
.actions{grid-column:1/-1;display:flex;align-items:center;gap:10px}
button{padding:7px 14px;border:0;border-radius:6px;background:#4338ca;color:#fff;font:inherit;font-weight:600;cursor:pointer}
button:hover{background:#3730a3}
#saved{color:#166534;font-size:12.5px}
.disclaimer{margin-top:24px;color:#6b7280;font-size:12.5px}
.email-head{overflow-wrap:anywhere}
`;

/** The page's script: the viewer's (redraws on change), and the form that saves the sample values. */
export const PREVIEW_JS = `${viewerScript('/events')}
(() => {
  function bindForm() {
    const form = document.getElementById('values-form');
    if (form === null || form.dataset.bound) return;
    form.dataset.bound = 'yes';
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const values = {};
      for (const input of form.querySelectorAll('input')) {
        if (input.value === '') continue;
        const dot = input.name.indexOf('.');
        (values[input.name.slice(0, dot)] ??= {})[input.name.slice(dot + 1)] = input.value;
      }
      const saved = document.getElementById('saved');
      const answer = await fetch('/values?path=' + encodeURIComponent(form.dataset.path), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(values),
      });
      saved.textContent = answer.ok ? 'Saved.' : 'Not saved: ' + (await answer.text());
    });
  }
  addEventListener('viewer:redrawn', bindForm);
  bindForm();
})();
`;
