/**
 * `--web` prints the address where no browser can be shown: the address comes from the API, so its
 * terminal controls (OSC 8 links, OSC 52 clipboard writes, clear-screen) never reach the terminal.
 */
import { afterEach, expect, it } from 'vitest';
import { type ApiServer, json, startApiServer } from '../../support/api-server.js';
import { run } from '../../support/main.js';

let server: ApiServer | undefined;
afterEach(() => server?.close());

it('prints a hostile address escaped, on a terminal without a display and off a terminal', async () => {
  const id = 'cw509z9tjxv56rte3vt30437u';
  const url = `https://app.loops.so/workflows/${id}\x1b]8;;https://evil.example\x07click\x1b]8;;\x07\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2J`;
  server = await startApiServer({
    'GET /v1/workflows/:id': (_req, res) =>
      json(res, 200, { id, url, workflowRevisionId: 'crev1', status: 'Draft', name: 'Win-back', rootNodeId: null, nodes: {} }),
  });
  const env = { LOOPS_API_KEY: 'test-key-not-real', LOOPS_BASE_URL: server.url, DISPLAY: undefined, WAYLAND_DISPLAY: undefined, BROWSER: undefined };
  // Its control characters percent-encoded, as in any address.
  const shown = `${new URL(url).href}\n`;
  for (const tty of [{ columns: 80 }, undefined]) {
    const result = await run(['workflow', 'show', id, '--web'], { env, tty });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(shown);
    expect(result.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
  }
});
