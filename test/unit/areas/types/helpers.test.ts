/**
 * The typed helpers of `loopsctl types --format py|go`: what a type checker reads of them (a
 * TypedDict's required and optional keys, a function's annotations, a struct's fields and json
 * tags) and what they give an app to send. Python runs the file where python3 is; Go is read by the
 * grammar of its lines everywhere, and compiled and run where a toolchain is.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateFormat } from '../../../../src/areas/types/formats.js';
import type { TypesInput } from '../../../../src/areas/types/generate.js';
import { goRun, readGoPackage } from '../../../support/go-source.js';
import { tempDir } from '../../../support/main.js';
import { needs } from '../../../support/programs.js';
import { listedEmail } from '../../../support/transactional.js';

const python3 = needs('python3', ['--version']);
const go = needs('go', ['version']);

/** Variables and properties whose names no identifier takes (`a,b`, `class`), or that meet once made one (`first_name`, `firstName`). */
const account: TypesInput = {
  transactional: [
    listedEmail('c1', 'Password reset', ['resetUrl', 'name', 'first_name', 'firstName', 'a,b', 'payload']),
    listedEmail('c2', 'Welcome', []),
    listedEmail('c3', 'Digest', ['period']),
  ],
  dataVariablesFallbacks: { c1: { name: 'there' }, c3: { period: 'week' } },
  eventPatterns: [
    {
      id: 'e1',
      eventName: 'trial "started"',
      eventProperties: [
        { name: 'seats', type: 'number' },
        { name: 'class', type: 'boolean' },
        { name: 'endsAt', type: 'date' },
      ],
      incomingWebhookPlatform: null,
    },
  ],
  contactProperties: [
    { key: 'firstName', label: 'First name', type: 'string' },
    { key: 'seats', label: 'Seats', type: 'number' },
  ],
  mailingLists: [],
};

/** Runs a Python program with the module loaded as `ns` (its names), and reads the JSON it prints. */
function python(module: string, program: string): unknown {
  const file = join(tempDir(), 'loops_ids.py');
  writeFileSync(file, module);
  const run = spawnSync('python3', ['-c', `import inspect, json, runpy, sys\nns = runpy.run_path(sys.argv[1])\n${program}`, file], { encoding: 'utf8' });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout);
}

describe('types --format py: typed helpers', () => {
  it.skipIf(python3.skip)(
    python3.title("each email's TypedDict requires what the TypeScript module requires, and its function gives the send's keyword arguments"),
    () => {
      const loaded = python(
        generateFormat('py', account),
        [
          'keys = lambda t: {"required": sorted(t.__required_keys__), "optional": sorted(t.__optional_keys__)}',
          'sig = inspect.signature(ns["tx_password_reset"])',
          'print(json.dumps({',
          '  "reset": keys(ns["TxPasswordResetData"]), "digest": keys(ns["TxDigestData"]), "trial": keys(ns["EventTrialStartedProperties"]),',
          '  "contact": keys(ns["ContactProperties"]), "contactTypes": {k: repr(v) for k, v in ns["ContactProperties"].__annotations__.items()},',
          '  "typed": sig.parameters["data_variables"].annotation is ns["TxPasswordResetData"] and sig.return_annotation is ns["TransactionalSend"],',
          '  "digestDefault": repr(inspect.signature(ns["tx_digest"]).parameters["data_variables"].default),',
          '  "send": ns["tx_password_reset"]("ada@example.com", {"resetUrl": "https://x", "first_name": "Ada", "firstName": "Ada", "a,b": 1, "payload": "p"}),',
          '  "welcome": ns["tx_welcome"]("ada@example.com"),',
          '  "event": ns["event_trial_started"]("ada@example.com", {"seats": 3, "class": True}),',
          '  "bare": ns["event_trial_started"]("ada@example.com"),',
          '}))',
        ].join('\n'),
      ) as Record<string, unknown>;
      expect(loaded.reset).toEqual({ required: ['a,b', 'firstName', 'first_name', 'payload', 'resetUrl'], optional: ['name'] });
      expect(loaded.digest).toEqual({ required: [], optional: ['period'] });
      expect(loaded.trial).toEqual({ required: [], optional: ['class', 'endsAt', 'seats'] });
      expect(loaded.contact).toEqual({ required: [], optional: ['firstName', 'seats'] });
      expect(loaded.contactTypes).toEqual({ firstName: 'str | None', seats: 'float | None' });
      expect(loaded.typed).toBe(true);
      // An email whose variables all have fallbacks may be sent without any.
      expect(loaded.digestDefault).toBe('None');
      expect(loaded.send).toEqual({
        transactional_id: 'c1',
        email: 'ada@example.com',
        data_variables: { resetUrl: 'https://x', first_name: 'Ada', firstName: 'Ada', 'a,b': 1, payload: 'p' },
      });
      expect(loaded.welcome).toEqual({ transactional_id: 'c2', email: 'ada@example.com', data_variables: {} });
      expect(loaded.event).toEqual({ event_name: 'trial "started"', email: 'ada@example.com', event_properties: { seats: 3, class: true } });
      expect(loaded.bare).toEqual({ event_name: 'trial "started"', email: 'ada@example.com', event_properties: {} });
    },
  );

  it('a helper whose name meets another record is refused, naming both, as constants are', () => {
    const meeting: TypesInput = { ...account, transactional: [listedEmail('c1', 'Reset', ['x']), listedEmail('c2', 'Reset data', [])] };
    // Python's classes are CamelCase and its constants upper case: they never meet; Go's share one case.
    expect(generateFormat('py', meeting)).toContain('TxResetData = TypedDict("TxResetData", {"x": str | float})');
    expect(() => generateFormat('go', meeting)).toThrow(
      'transactional email "Reset data" (c2) and transactional email "Reset" (c1) both become TxResetData (keys "reset-data" and "reset")',
    );
  });
});

describe('types --format go: typed helpers', () => {
  const text = generateFormat('go', account);

  it("a struct of each email's variables and each event's properties, with json tags, and a Payload method giving the send's body", () => {
    const go = readGoPackage(text);
    expect(go.constants.get('TxPasswordReset')).toBe('c1');
    const reset = go.structs.get('TxPasswordResetData')!;
    expect(reset.map(({ json, omitempty, type }) => [json, omitempty, type])).toEqual([
      ['firstName', false, 'string'],
      ['first_name', false, 'string'],
      ['name', true, 'string'],
      ['payload', false, 'string'],
      ['resetUrl', false, 'string'],
    ]);
    // Two that meet as Go names are told apart; the method's name is never a field's.
    expect(new Set(reset.map((field) => field.name)).size).toBe(5);
    expect(reset.map((field) => field.name)).not.toContain('Payload');
    expect(text).toContain('// "a,b" is left out: a json tag cannot hold its name.');
    expect(go.structs.get('TxWelcomeData')).toEqual([]);
    expect(go.structs.get('EventTrialStartedProperties')!.map(({ json, type }) => [json, type])).toEqual([
      ['class', '*bool'],
      ['endsAt', '*string'],
      ['seats', '*float64'],
    ]);
    expect(go.structs.get('ContactProperties')!.map(({ name, type }) => [name, type])).toEqual([
      ['FirstName', '*string'],
      ['Seats', '*float64'],
    ]);
    expect(go.structs.get('SendEventPayload')!.at(-1)).toEqual({ name: 'ContactProperties', type: '*ContactProperties', json: '', omitempty: true });
    expect(go.payloads.map(({ receiver, returns, fields }) => [receiver, returns, Object.fromEntries(fields)])).toEqual([
      ['TxDigestData', 'SendTransactionalPayload', { TransactionalID: 'TxDigest', Email: 'email', DataVariables: 'd' }],
      ['TxPasswordResetData', 'SendTransactionalPayload', { TransactionalID: 'TxPasswordReset', Email: 'email', DataVariables: 'd' }],
      ['TxWelcomeData', 'SendTransactionalPayload', { TransactionalID: 'TxWelcome', Email: 'email', DataVariables: 'd' }],
      ['EventTrialStartedProperties', 'SendEventPayload', { EventName: 'EventTrialStarted', Email: 'email', EventProperties: 'd' }],
    ]);
  });

  it('the grammar check refuses what Go would not compile', () => {
    expect(() => readGoPackage(text.replace('\tResetUrl ', '\tResetUrl, '))).toThrow('is not Go as loopsctl writes it here');
    expect(() => readGoPackage(text.replace('EventName: EventTrialStarted', 'EventName: EventTrialEnded'))).toThrow('EventTrialEnded, which is not declared');
    expect(() => readGoPackage(text.replace(/\n\}\n$/, '\n'))).toThrow('block is left open');
    expect(() => readGoPackage(`${text}\ntype TxWelcomeData struct{}\n`)).toThrow('TxWelcomeData is declared twice');
  });

  it.skipIf(go.skip)(go.title('compiles, is as gofmt lays it out, and marshals the bodies the API takes'), () => {
    const run = goRun(
      text,
      [
        '\tseats := 3.0',
        '\tfirst := "Ada"',
        '\ta, _ := json.Marshal(loops.TxPasswordResetData{ResetUrl: "https://x"}.Payload("ada@example.com"))',
        '\tb := loops.EventTrialStartedProperties{Seats: &seats}.Payload("ada@example.com")',
        '\tb.ContactProperties = &loops.ContactProperties{FirstName: &first}',
        '\tc, _ := json.Marshal(b)',
        '\tfmt.Println(string(a))',
        '\tfmt.Println(string(c))',
      ].join('\n'),
    );
    expect(run.stderr).toBe('');
    expect(run.unformatted).toBe('');
    const [email, event] = run.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as unknown);
    expect(email).toEqual({
      transactionalId: 'c1',
      email: 'ada@example.com',
      dataVariables: { resetUrl: 'https://x', firstName: '', first_name: '', payload: '' },
    });
    expect(event).toEqual({ eventName: 'trial "started"', email: 'ada@example.com', eventProperties: { seats: 3 }, firstName: 'Ada' });
  });
});
