/**
 * The page around rendered emails, shared by `content preview` and the sandbox's inbox: the two
 * device frames an email is drawn in (600 and 375 px), the page's layout and base styles (a top
 * bar, a list on the left, cards beside the frames), and its script, which sizes each frame to
 * its email and follows the server's change events (and each opening of their stream, which a
 * change made just before it never reached): it fetches the page again and puts in place
 * each part marked `data-live` (a part marked `data-keep` only when that value changed, so a form
 * being typed in stays; frames reload in place), then tells the page's own script with the
 * `viewer:redrawn` event.
 */
import { escapeHtml } from './render/index.js';

/** The widths an email is drawn at: a desktop client's and a phone's. */
export const DEVICE_WIDTHS = [600, 375] as const;

/**
 * The email's frame at one width. For two emails compared, each says which it is (`side.label`:
 * the original, or the converted one) and an original's ids are its own (`original-desktop`).
 * Sandboxed: the email runs no script, its links open elsewhere. Each frame is in a screen the
 * script scales down to the room there is, so a 600 px email on a phone shows whole, smaller,
 * rather than cut off.
 */
export function deviceFrame(src: string, title: string, width: (typeof DEVICE_WIDTHS)[number], side?: { id?: string; label: string }): string {
  const device = width === 600 ? 'desktop' : 'mobile';
  const id = side?.id === undefined ? device : `${side.id}-${device}`;
  const caption = `${side === undefined ? '' : `${escapeHtml(side.label)} · `}${device === 'desktop' ? 'Desktop' : 'Mobile'} · ${width} px`;
  return `<figure class="device ${device}"><figcaption>${caption}</figcaption><div class="screen"><iframe id="${id}" name="${id}" title="${escapeHtml(title)} at ${width} px" width="${width}" src="${escapeHtml(src)}" sandbox="allow-same-origin allow-popups allow-popups-to-escape-sandbox"></iframe></div></figure>`;
}

/** The email's two frames, at 600 and 375 px. */
export function deviceFrames(src: string, title: string, side?: { id?: string; label: string }): string {
  return DEVICE_WIDTHS.map((width) => deviceFrame(src, title, width, side)).join('');
}

/** The top bar: what the page is, where, and whether it is following the server. */
export function topBar(brand: string, where: string, live: string): string {
  return `<header class="top"><div class="brand">${brand}</div><div class="where" title="${escapeHtml(where)}">${escapeHtml(where)}</div><div class="live" id="live" role="status" data-live-text="${escapeHtml(live)}">${escapeHtml(live)}</div></header>`;
}

export const VIEWER_CSS = `
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Liberation Sans",sans-serif;color:#1f2937;background:#f3f4f6}
code{font-family:ui-monospace,Menlo,Consolas,"Liberation Mono",monospace;font-size:12.5px}
.top{display:flex;align-items:center;gap:16px;padding:10px 20px;background:#111827;color:#e5e7eb;flex-wrap:wrap}
.top .brand{font-size:15px}.top .brand strong{color:#fff}
.top .where{flex:1;min-width:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;color:#9ca3af;font-size:12.5px}
.top .live{font-size:12.5px;color:#86efac}.top .live::before{content:"● "}.top .live.offline{color:#fca5a5}
.layout{display:flex;align-items:flex-start;min-height:calc(100vh - 44px)}
nav{background:#fff;border-right:1px solid #e5e7eb;align-self:stretch}
main{flex:1;min-width:0;padding:20px 24px}
main h1{margin:0;font-size:20px}.muted{color:#6b7280;margin:4px 0 0}
.workspace{display:flex;gap:20px;align-items:flex-start;margin-top:16px;flex-wrap:wrap}
.frames{display:flex;gap:20px;align-items:flex-start;flex-wrap:wrap;min-width:0;max-width:100%}
.device{margin:0;min-width:0;max-width:100%}
.device .screen{overflow:hidden}
.device iframe{transform-origin:0 0}
.device figcaption{font-size:12px;font-weight:600;color:#4b5563;margin-bottom:6px}
.device iframe{display:block;height:480px;border:1px solid #d1d5db;border-radius:8px;background:#fff;box-shadow:0 1px 2px rgba(0,0,0,.05)}
.side{flex:1 1 280px;min-width:0;max-width:440px;display:flex;flex-direction:column;gap:14px}
.card{overflow-wrap:anywhere;background:#fff;border:1px solid #e5e7eb;border-radius:8px;padding:14px 16px}
.card h3{margin:0 0 8px;font-size:13px;text-transform:uppercase;letter-spacing:.05em;color:#374151}
.intro{max-width:640px}.empty{color:#6b7280;padding:0 10px}
@media (max-width:900px){.layout{flex-direction:column;align-items:stretch}nav{flex:none;width:100%;border-right:0;border-bottom:1px solid #e5e7eb}.side{max-width:none}}
@media (max-width:700px){main{padding:14px}.frames{width:100%}}
`;

/** The page's script, following the change events at `eventsUrl`. */
export function viewerScript(eventsUrl: string): string {
  return `'use strict';
(() => {
  const live = document.getElementById('live');
  function fit(frame) {
    try {
      const doc = frame.contentDocument;
      if (!doc || !doc.documentElement) return;
      // Measured from nothing: a document is at least as tall as its frame.
      frame.style.height = '0px';
      frame.style.height = Math.max(200, doc.documentElement.scrollHeight) + 'px';
    } catch (error) {
      // A frame of another origin keeps its height.
    }
    scale(frame);
  }
  // A frame wider than the room there is (a 600 px email on a phone) is drawn smaller, whole: the
  // email keeps its own width inside, as a client wider than the screen would lay it out. The room
  // is the workspace's, or for two emails side by side the frame's half of their pair: neither
  // changes with the frames' own size.
  function roomOf(frame) {
    return frame.closest('.pair > .device') || frame.closest('.workspace') || document.body;
  }
  function scale(frame) {
    const screen = frame.parentElement;
    if (!screen || !screen.classList.contains('screen')) return;
    const natural = Number(frame.getAttribute('width'));
    const room = roomOf(frame).clientWidth;
    const factor = room > 0 && room < natural ? room / natural : 1;
    frame.style.transform = factor < 1 ? 'scale(' + factor + ')' : '';
    screen.style.width = factor < 1 ? natural * factor + 'px' : '';
    screen.style.height = factor < 1 ? frame.offsetHeight * factor + 'px' : '';
    screen.parentElement.dataset.scale = String(Math.round(factor * 100) / 100);
  }
  // A room is laid out anew after the window's resize event has run, and changes without one (a
  // pair's columns as the window crosses the width they stack at): each frame is scaled again
  // whenever its room's size has changed, once the page is laid out.
  const rooms = new ResizeObserver(() => { for (const frame of document.querySelectorAll('iframe')) scale(frame); });
  function watchFrames() {
    // The rooms of frames a redraw replaced are let go.
    rooms.disconnect();
    for (const frame of document.querySelectorAll('iframe')) {
      if (!frame.dataset.watched) frame.addEventListener('load', () => fit(frame));
      frame.dataset.watched = 'yes';
      fit(frame);
      rooms.observe(roomOf(frame));
    }
  }
  async function refresh() {
    const answer = await fetch(location.href, { cache: 'no-store' });
    if (!answer.ok) return;
    const next = new DOMParser().parseFromString(await answer.text(), 'text/html');
    document.title = next.title;
    for (const part of document.querySelectorAll('[data-live]')) {
      // A part inside one already replaced came in with it.
      if (!part.isConnected) continue;
      const replacement = next.getElementById(part.id);
      if (replacement === null) continue;
      if ('keep' in part.dataset && part.dataset.keep === replacement.dataset.keep) continue;
      const frames = part.querySelectorAll('iframe');
      const fresh = replacement.querySelectorAll('iframe');
      if (part.classList.contains('frames') && frames.length === fresh.length) {
        // Frames load the new drawing in place, so the page does not jump; a frame whose address
        // has not moved shows the drawing already (setting it again would load it twice).
        frames.forEach((frame, index) => {
          const src = fresh[index].getAttribute('src');
          if (frame.getAttribute('src') !== src) frame.src = src;
        });
        continue;
      }
      part.replaceWith(replacement);
    }
    watchFrames();
    dispatchEvent(new Event('viewer:redrawn'));
  }
  const events = new EventSource(${JSON.stringify(eventsUrl)});
  events.addEventListener('change', () => { refresh().catch(() => {}); });
  // A change made after the page was drawn but before the stream opened (or while it was down) sent
  // no event the page heard: each opening looks once.
  events.addEventListener('open', () => { live.textContent = live.dataset.liveText; live.classList.remove('offline'); refresh().catch(() => {}); });
  events.addEventListener('error', () => { live.textContent = 'Not live: is the server still running?'; live.classList.add('offline'); });
  watchFrames();
})();
`;
}
