/**
 * The picker in-process, on a terminal the test types into: the records of the list, narrowed as
 * one types, the one chosen run with; off a terminal, the usual usage error and nothing asked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedId } from '../../../src/emulator/module.js';
import { themes } from '../../../src/emulator/routes/themes.js';
import type { SandboxServer } from '../../../src/emulator/server.js';
import { run, sandboxEnv, startTestSandbox, typedInput } from '../../support/main.js';

const MIDNIGHT = seedId('theme/Midnight');
const PAPER = seedId('theme/Paper');

let sandbox: SandboxServer;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

/**
 * Runs `argv` on a terminal, types `words` once the records are there (as a person reads the list
 * before typing), and Enter once the list shows only the one wanted (`chosen`, of the list as
 * last drawn).
 */
function pickByTyping(argv: string[], words: string, chosen: (shown: string) => boolean, { columns = 100 } = {}) {
  const stdin = typedInput();
  let screen = '';
  let typed = '';
  return run(argv, {
    env: { ...sandboxEnv(sandbox), NO_COLOR: '1' },
    input: stdin,
    tty: { columns },
    onWrite: (stream, text) => {
      if (stream !== 'stderr') return;
      screen += text;
      if (typed === '' && screen.includes('❯ ')) {
        typed = words;
        screen = '';
        stdin.write(typed);
      } else if (typed === words && chosen(screen.slice(screen.lastIndexOf('Choose the id')))) {
        typed = 'done';
        stdin.write('\r');
      }
    },
  });
}

describe('the picker', () => {
  it('narrows the records as one types, and runs the command with the one chosen', async () => {
    const result = await pickByTyping(['themes', 'get', '--json'], 'paper', (shown) => shown.includes(`❯ ${PAPER}`) && !shown.includes(MIDNIGHT));
    expect(result.code, result.stderr).toBe(0);
    expect(result.json()).toMatchObject({ id: PAPER, name: 'Paper' });
    // The rows are the list's: its header, and the theme's row with its columns.
    expect(result.stderr).toMatch(/ ID +NAME +DEFAULT +BACKGROUND/);
  });

  it('picks the workflow of `workflow show` given neither its id nor --file, which stands in for it', async () => {
    const result = await pickByTyping(['workflow', 'show', '--json'], 'welcome', (shown) => /❯ \w+ +Welcome series/.test(shown) && !shown.includes('Win-back'));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/Choose the id: type to filter workflows/);
    expect(result.json()).toMatchObject({ name: 'Welcome series', nodes: expect.any(Object) });
    // Off a terminal, the command's own words.
    const missing = await run(['workflow', 'show'], { env: sandboxEnv(sandbox) });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/name a workflow: its id, or --file/);
  });

  it('ends with nothing done on Ctrl-C, as an interruption', async () => {
    const stdin = typedInput();
    let screen = '';
    const result = await run(['themes', 'update', '--name', 'Night'], {
      env: sandboxEnv(sandbox),
      input: stdin,
      tty: { columns: 100 },
      onWrite: (stream, text) => {
        if (stream !== 'stderr' || screen.includes('❯ ')) return;
        screen += text;
        if (screen.includes('❯ ')) stdin.write('\u0003');
      },
    });
    expect(result.code).toBe(130);
    expect(result.stderr).toMatch(/interrupted/);
  });

  it('escapes an id that holds control characters wherever it is drawn: rows, blocks and the answer', async () => {
    // An id from an API that is not Loops (a proxy, a --base-url): ESC ] 52 would set the clipboard.
    const evil = 'c0sc52\u001b]52;c;cm0gLXJmIH4=\u0007\u001b[2J';
    const shown = 'c0sc52\\x1b]52;c;cm0gLXJmIH4=\\x07\\x1b[2J';
    sandbox.update((state) => {
      const list = themes.of(state);
      list.push({ ...list.find(({ id }) => id === PAPER)!, id: evil, name: 'Evil', isDefault: false });
    });
    try {
      for (const columns of [100, 30]) {
        // Each key is drawn twice, as typed and once its search has answered: Enter after the second.
        let drawn = 0;
        const result = await pickByTyping(['themes', 'get', '--json'], 'evil', (screen) => /choose\s+evil\s/.test(screen) && ++drawn === 2, { columns });
        // Chosen, it is refused before any request, as the same id typed would be.
        expect(result.code, result.stderr).toBe(2);
        expect(result.stderr).toMatch(/theme id must not contain whitespace, control characters or broken characters/);
        expect(result.stderr).not.toContain('\u001b]52');
        expect(result.stderr).not.toContain('\u0007');
        // The row (a block, on a narrow terminal) and the answer after the question each show it escaped.
        expect(result.stderr.replaceAll('\n', '').split(shown).length, `${columns} columns`).toBeGreaterThanOrEqual(3);
      }
    } finally {
      sandbox.update(
        (state) =>
          void themes.of(state).splice(
            themes.of(state).findIndex(({ id }) => id === evil),
            1,
          ),
      );
    }
  });

  it('asks nothing off a terminal: a missing id is the usual usage error, exit 2', async () => {
    const missing = await run(['themes', 'get'], { env: sandboxEnv(sandbox) });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/missing required argument 'id'/);
    expect(missing.stderr).toContain('loopsctl themes list');
    const picked = await run(['workflow', 'show', '--pick'], { env: sandboxEnv(sandbox) });
    expect(picked.code).toBe(2);
    expect(picked.stderr).toMatch(/--pick needs a terminal/);
  });

  it('refuses --pick with the id given', async () => {
    const result = await run(['themes', 'get', MIDNIGHT, '--pick'], { env: sandboxEnv(sandbox), input: typedInput(), tty: { columns: 100 } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--pick chooses the id from a list, and one was given/);
  });
});
