import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedId } from '../../../../src/emulator/module.js';
import { seedState } from '../../../../src/emulator/state/index.js';
import { json, startApiServer } from '../../../support/api-server.js';
import { run, tempDir } from '../../../support/main.js';
import { type RecordingSandbox, recordingSandbox } from '../../../support/recording.js';

const MIDNIGHT = seedId('theme/Midnight');
const PAPER = seedId('theme/Paper');

describe('a theme missing styles', () => {
  let sandbox: RecordingSandbox;
  beforeEach(async () => {
    sandbox = await recordingSandbox({
      initialState: (modules) => {
        const state = seedState(modules);
        const themes = state.themes as { id: string; styles: Record<string, unknown> }[];
        themes.find((theme) => theme.id === PAPER)!.styles = { backgroundColor: '#f4efe6' };
        return state;
      },
    });
  });
  afterEach(() => sandbox.close());

  it('still lists, with - for what is absent', async () => {
    const result = await run(['themes', 'list'], { env: sandbox.env });
    expect(result.code).toBe(0);
    const row = result.stdout.split('\n').find((line) => line.startsWith(PAPER))!;
    expect(row.split('\t').slice(3, 7)).toEqual(['#f4efe6', '-', '-', '-']);
  });

  it('still shows, with - for every absent style', async () => {
    const result = await run(['themes', 'get', PAPER], { env: { ...sandbox.env, NO_COLOR: '1' }, tty: { columns: 100 } });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/\nPage background +backgroundColor +#f4efe6\n/);
    expect(result.stdout).toMatch(/\nHeading 3 +heading3Color +-\n/);
  });
});

describe('themes get, create and update', () => {
  let sandbox: RecordingSandbox;
  beforeEach(async () => {
    sandbox = await recordingSandbox();
  });
  afterEach(() => sandbox.close());

  it('get asks for the one theme by id, and --json prints it unchanged', async () => {
    const result = await run(['themes', 'show', MIDNIGHT, '--json'], { env: sandbox.env });
    expect(result.code).toBe(0);
    expect(result.json()).toMatchObject({ id: MIDNIGHT, name: 'Midnight' });
    expect(sandbox.requests.map((request) => `${request.method} ${request.path}`)).toEqual([`GET /v1/themes/${MIDNIGHT}`]);
    const missing = await run(['themes', 'get', 'nosuchtheme'], { env: sandbox.env });
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain('see the ids with `loopsctl themes list`');
  });

  it('create merges the styles file and --style options, and the request fits the description', async () => {
    const file = join(tempDir(), 'styles.json');
    writeFileSync(file, JSON.stringify({ backgroundColor: '#000000', borderWidth: 2 }));
    const result = await run(
      ['themes', 'create', '--name', 'Dark', '--styles-file', file, '--style', 'borderWidth=3', '--style', 'bodyFontFamily=Inter', '--json'],
      { env: sandbox.env },
    );
    expect(result.code).toBe(0);
    expect(sandbox.requests.at(-1)!.body).toEqual({ name: 'Dark', styles: { backgroundColor: '#000000', borderWidth: 3, bodyFontFamily: 'Inter' } });
    expect(result.json()).toMatchObject({ name: 'Dark', isDefault: false, styles: { backgroundColor: '#000000', borderWidth: 3 } });
    expect(sandbox.problems()).toEqual([]);
  });

  it('create takes a theme as `themes get --json` prints it', async () => {
    const copied = await run(['themes', 'get', MIDNIGHT, '--json'], { env: sandbox.env });
    const result = await run(['themes', 'create', '--name', 'Midnight copy', '--styles-file', '-', '--json'], { env: sandbox.env, input: copied.stdout });
    expect(result.code).toBe(0);
    expect(result.json().styles).toEqual(copied.json().styles);
  });

  it('update says how many emails the change reached; --json keeps affectedEmailCount', async () => {
    const text = await run(['themes', 'update', MIDNIGHT, '--style', 'buttonBorderRadius=12'], {
      env: { ...sandbox.env, NO_COLOR: '1' },
      tty: { columns: 100 },
    });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/\n +buttonBorderRadius +12\n/);
    expect(text.stdout).toContain('No email was changed.');
    const piped = await run(['themes', 'update', MIDNIGHT, '--style', 'buttonBorderRadius=12'], { env: sandbox.env });
    expect(piped.stdout).toMatch(/\nstyles\t\{.*"buttonBorderRadius":12[,}]/);
    expect(piped.stdout).toMatch(/\naffectedEmailCount\t0\n$/);
    const renamed = await run(['themes', 'update', MIDNIGHT, '--name', 'Midnight blue', '--json'], { env: sandbox.env });
    expect(renamed.json()).toMatchObject({ name: 'Midnight blue', affectedEmailCount: 0 });
    expect(sandbox.requests.at(-1)!.body).toEqual({ name: 'Midnight blue' });
    expect(sandbox.problems()).toEqual([]);
  });

  it('counts the emails that use a theme by their LMX, the default one for those that name none, and asks --live when a live one does', async () => {
    const messages = () => sandbox.server.state().emailMessages as { message: { id: string; lmx: string } }[];
    const named = messages()[0]!.message.id;
    sandbox.server.update((state) => {
      const stored = (state.emailMessages as { message: { id: string; lmx: string } }[]).find((each) => each.message.id === named)!;
      stored.message.lmx = `<Style themeId="${MIDNIGHT}" />\n${stored.message.lmx}`;
    });
    const midnight = await run(['themes', 'update', MIDNIGHT, '--style', 'buttonBorderRadius=14', '--live', '--json'], { env: sandbox.env });
    expect(midnight.json()).toMatchObject({ affectedEmailCount: 1 });
    const fallback = seedId('theme/Default');
    const refused = await run(['themes', 'update', fallback, '--style', 'buttonBorderRadius=14'], { env: sandbox.env });
    expect(refused.code).toBe(11);
    // The live emails a line each, after what the write does and what it needs.
    const [said, ...emails] = refused.stderr.split('\nHint:')[0]!.split('\n');
    expect(said).toMatch(/^Error: POST \/v1\/themes\/\S+ edits a theme that \d+ live emails use, which needs a person's yes; nothing more was sent:$/);
    expect(emails.length).toBeGreaterThan(1);
    for (const email of emails) expect(email).toMatch(/^ {2}- (the published email|an email|\d+ emails) of (transactional email|workflow|campaign) "/);
    const restyled = await run(['themes', 'update', fallback, '--style', 'buttonBorderRadius=14', '--live', '--json'], { env: sandbox.env });
    expect(restyled.json()).toMatchObject({ affectedEmailCount: messages().length - 1 });
  });

  it.each([
    ['a theme the sandbox does not hold', 'theme-deleted-in-the-app'],
    ['an id with a stray space', ` ${MIDNIGHT}`],
    ['an id in another case', MIDNIGHT.toUpperCase()],
  ])("takes emails whose <Style themeId> names %s as the default theme's: counted by it, and asking --live", async (_what, named) => {
    const messages = () => sandbox.server.state().emailMessages as { message: { id: string; lmx: string } }[];
    sandbox.server.update((state) => {
      for (const { message } of state.emailMessages as { message: { lmx: string } }[]) message.lmx = `<Style themeId="${named}" />\n${message.lmx}`;
    });
    const fallback = seedId('theme/Default');
    const refused = await run(['themes', 'update', fallback, '--style', 'buttonBorderRadius=14'], { env: sandbox.env });
    expect(refused.code).toBe(11);
    expect(refused.stderr).toMatch(/edits a theme that \d+ live emails use, which needs a person's yes/);
    const restyled = await run(['themes', 'update', fallback, '--style', 'buttonBorderRadius=14', '--live', '--json'], { env: sandbox.env });
    expect(restyled.json()).toMatchObject({ affectedEmailCount: messages().length });
    const midnight = await run(['themes', 'update', MIDNIGHT, '--style', 'buttonBorderRadius=14', '--json'], { env: sandbox.env });
    expect(midnight.json()).toMatchObject({ affectedEmailCount: 0 });
  });

  it.each([
    [['--style', 'buttonColour=#fff'], '"buttonColour" is not a theme style', 'did you mean buttonBodyColor, buttonTextColor?'],
    [['--style', 'borderWidth=thick'], 'borderWidth takes a number, not "thick"', 'loopsctl themes create --help'],
    [['--style', 'noequals'], 'expected <style>=<value>', '--style buttonBodyColor=#0057ff'],
  ])('refuses %j before sending', async (options, message, hint) => {
    const result = await run(['themes', 'create', '--name', 'X', ...options], { env: sandbox.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain(hint);
    expect(sandbox.requests).toHaveLength(0);
  });

  it('refuses a styles file with an unknown key or a value of the wrong kind, naming it', async () => {
    const unknown = await run(['themes', 'update', MIDNIGHT, '--styles-file', '-'], { env: sandbox.env, input: '{"headingColor": "#000"}' });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('stdin: "headingColor" is not a theme style');
    expect(unknown.stderr).toMatch(/did you mean .*heading1Color/);
    const kind = await run(['themes', 'update', MIDNIGHT, '--styles-file', '-'], { env: sandbox.env, input: '{"bodyColor": 255}' });
    expect(kind.stderr).toContain('bodyColor takes a colour, as a hex code such as "#0057ff", not 255');
    for (const [args, input] of [
      [['--style', 'backgroundColor=notacolor'], undefined],
      [['--style', 'backgroundColor=#12345'], undefined],
      [['--styles-file', '-'], '{"buttonTextColor": "blue"}'],
    ] as const) {
      const notAColour = await run(['themes', 'update', MIDNIGHT, ...args], { env: sandbox.env, input });
      expect(notAColour.code).toBe(2);
      expect(notAColour.stderr).toMatch(/(backgroundColor|buttonTextColor) takes a colour, as a hex code such as "#0057ff", not "(notacolor|#12345|blue)"/);
    }
    expect(
      (await run(['themes', 'update', MIDNIGHT, '--style', 'borderColor=transparent', '--style', 'bodyColor=#FFF', '--json'], { env: sandbox.env })).code,
    ).toBe(0);
    const nothing = await run(['themes', 'update', MIDNIGHT], { env: sandbox.env });
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('nothing to update');
    expect(sandbox.requests.filter((request) => request.method !== 'GET')).toHaveLength(1);
  });
});

it('a 400 on update is explained, and the id is percent-encoded into the path', async () => {
  const server = await startApiServer({ 'POST /v1/themes/:id': (_req, res) => json(res, 400, { message: 'Invalid request body.' }) });
  try {
    const env = { LOOPS_API_KEY: 'test-key-not-real', LOOPS_BASE_URL: server.url };
    const result = await run(['themes', 'update', 'a?b#c', '--name', 'X'], { env });
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('Error: Invalid request body.');
    expect(result.stderr).toContain('Hint: a style may have a value the API does not take');
    expect(server.requests[0]!.path).toBe('/v1/themes/a%3Fb%23c');
    // A / in a written id would be sent as %2F, which a server may read as a separator: refused, nothing sent.
    const slashed = await run(['themes', 'update', 'a/b', '--name', 'X'], { env });
    expect(slashed.code).toBe(2);
    expect(slashed.stderr).toContain('the path "/v1/themes/a%2Fb" is not sent as written: it holds an encoded /');
    expect(server.requests).toHaveLength(1);
  } finally {
    await server.close();
  }
});
