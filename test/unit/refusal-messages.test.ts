/**
 * A test that checks a refusal checks why: each assertion of a non-zero exit code (`code: 2`,
 * `exitCode: 5`, `.toBe(ExitCode.auth)`) comes with an assertion on the message that explains it
 * (stderr, the error's message, or the JSON error's message), in the same test and on the same
 * result. An exit code alone says little: commander exits 2 for an unknown option too, so a test
 * that checks only `code: 2` passes when the option was misspelled or renamed.
 *
 * The rule, read from the syntax tree of each file under test/:
 * - an exit code assertion is `expect(x.code)` or `expect(x.exitCode)` (or a bare `code`, as
 *   destructured) with `.toBe`/`.toEqual` of anything but 0, `.not.toBe(0)` or `.toBeGreaterThan`,
 *   or a matcher given an object with a `code` or `exitCode` property that is not 0 (a number, an
 *   `ExitCode` entry, a variable);
 * - it is answered by the same object giving `stderr` or `message`, or by another assertion in
 *   the same test (the `it`/`test` callback; in a helper, the helper) on the same result (`x`, also
 *   through `JSON.parse(x.stderr)`, `lines(x.stderr)` and the like) that checks what its stderr or
 *   its message says; a JSON error (on stderr or stdout) counts only where its `message` is
 *   checked, plain stdout not at all (it holds what the command printed before it stopped), nor
 *   does a negated assertion (`.not.toContain`); stderr checked as exactly empty counts, since
 *   a refusal for another reason would print there;
 * - an exit code read from a result that has no name (`expect((await run(...)).code)`) cannot be
 *   answered: name the result and check its message.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');

/** The names an exit code is read by, and the texts that say why a command refused. */
const EXIT_NAMES = new Set(['code', 'exitCode']);
const TEXT_NAMES = new Set(['stderr', 'message']);
/** The matchers that check what a text says (not only that there is one). */
const TEXT_MATCHERS = new Set([
  'toBe',
  'toEqual',
  'toStrictEqual',
  'toContain',
  'toMatch',
  'toMatchObject',
  'toContainEqual',
  'toMatchInlineSnapshot',
  'toThrow',
  'toThrowError',
]);

/**
 * Exit code assertions that are about the code and nothing else, each with why. Keyed by file and
 * the assertion's text (whitespace collapsed); a test below checks that each one still matches.
 */
const ALLOWED: { file: string; assertion: string; why: string }[] = [
  {
    file: 'test/e2e/areas/content/check-html.test.ts',
    assertion: 'expect(checked.code).toBe(1)',
    why: "`content check --html`'s exit 1 says the captured HTML has findings at the failing severity, no refusal: the findings per file, their rules and impacts, which the test asserts, are what it says",
  },
  {
    file: 'test/e2e/areas/content/check-qa.test.ts',
    assertion: "expect(moderate).toEqual({ code: 1, byFile: { [`${RESET}/draft.lmx`]: { errors: ['vague-link-text'], warnings: [] } } })",
    why: "`content check --severity moderate`'s exit 1 says a moderate finding now fails, no refusal: the findings per file, asserted in the same expectation, are what it says",
  },
  {
    file: 'test/e2e/areas/content/environments-promote.test.ts',
    assertion: 'expect(held.code, held.stdout + held.stderr).toBe(5)',
    why: "`content promote`'s exit 5 says a record conflicted and was held back, as push's does, no refusal of the run: the conflict's row on stdout, which the test asserts, is what it says",
  },
  {
    file: 'test/e2e/areas/content/environments.test.ts',
    assertion: 'expect(every.code).toBe(1)',
    why: "`content check`'s exit 1 says the tree has findings, no refusal: each finding on stdout, with its file, line, rule and environment, which the test asserts, is what it says",
  },
  {
    file: 'test/e2e/areas/content/environments.test.ts',
    assertion: 'expect(alone.code).toBe(1)',
    why: "`content check`'s exit 1 says the tree has findings, no refusal: each finding on stdout, with its file, line, rule and environment, which the test asserts, is what it says",
  },
  {
    file: 'test/e2e/areas/content/environments.test.ts',
    assertion: 'expect(check.code, check.stdout + check.stderr).toBe(1)',
    why: "`content check`'s exit 1 says the tree has findings, no refusal: each finding on stdout, with its file, line, rule and environment, which the test asserts, is what it says",
  },
  {
    file: 'test/e2e/areas/content/environments.test.ts',
    assertion: 'expect(every.code, named).toBe(1)',
    why: "`content check`'s exit 1 says the tree has findings, no refusal: each finding on stdout, with its file, line, rule and environment, which the test asserts, is what it says",
  },
  {
    file: 'test/e2e/areas/content/environments.test.ts',
    assertion: 'expect(account.code, account.stderr).toBe(1)',
    why: "`content check`'s exit 1 says the tree has findings, no refusal: each finding on stdout, with its file, line, rule and environment, which the test asserts, is what it says",
  },
  {
    file: 'test/e2e/areas/deliveries/reconcile.test.ts',
    assertion: 'expect(mismatch.code, mismatch.stderr).toBe(1)',
    why: "`deliveries reconcile --contacts`' exit 1 says more contacts than --max-gap are not as the journal says, no refusal: each contact's mismatch on stdout, which the test asserts, is what it says",
  },
  {
    file: 'test/e2e/areas/deliveries/reconcile.test.ts',
    assertion: 'expect(gap.code, gap.stderr).toBe(1)',
    why: "`deliveries reconcile`'s exit 1 says a gap passed --max-gap, no refusal: each email's gap on stdout, which the test asserts, is what it says",
  },
  {
    file: 'test/e2e/areas/deliveries/reconcile.test.ts',
    assertion: 'expect(result.code, result.stderr).toBe(1)',
    why: "`deliveries reconcile`'s exit 1 says a gap passed --max-gap, no refusal: each email's gap on stdout, which the test asserts, is what it says",
  },
  {
    file: 'test/e2e/areas/metrics/alerts.test.ts',
    assertion: 'expect(fired.code, fired.stderr).toBe(1)',
    why: "`metrics alerts`' exit 1 says an alert fired, no refusal: the alerts on stdout (the rate, its days, the change before it), which the test asserts, are what it says",
  },
  {
    file: 'test/e2e/areas/metrics/alerts.test.ts',
    assertion: 'expect(text.code).toBe(1)',
    why: "`metrics alerts`' exit 1 says an alert fired, no refusal: the alert's line on stdout, which the test asserts, is what it says",
  },
  {
    file: 'test/spawned/areas/content/check-html.test.ts',
    assertion: 'expect(result.code, result.stderr).toBe(1)',
    why: "`content check --html`'s exit 1 says the saved email has a critical finding, no refusal: the findings and their impacts, which the test asserts, are what it says",
  },
  {
    file: 'test/e2e/areas/apply/applied-twice.test.ts',
    assertion: 'expect(json.code, json.stderr).toBe(5)',
    why: "`undo --json`'s exit 5 says a record of the change could not be undone, no refusal of the run: the result's `notUndone`, each record with the reason, which the test asserts, is what it says",
  },
  {
    file: 'test/e2e/areas/apply/earlier-format.test.ts',
    assertion: "expect((await sandbox.loopsctl(['content', 'diff', before, ...ONLY], { env })).code).toBe(1)",
    why: "`content diff`'s exit 1 says the account differs from the tree the test pulled before its changes, no refusal: the diff after both undos, exit 0, which the test asserts, is what it shows",
  },
  {
    file: 'test/e2e/areas/deliveries/replay-alerts.test.ts',
    assertion: 'expect(result.code).toBe(1)',
    why: "`deliveries replay --json`'s exit 1 says some deliveries still failed after their tries, no refusal: the JSON's `failed` list, each with its target's answer, which the test asserts, is what it says",
  },
  {
    file: 'test/e2e/areas/deliveries/replay-alerts.test.ts',
    assertion: 'expect(lowered.code).toBe(1)',
    why: "`deliveries alerts`'s exit 1 says an alert still stands fired, no refusal: the transitions on stdout, which the test asserts, are what it says",
  },
  {
    file: 'test/e2e/areas/check/qa.test.ts',
    assertion: 'expect(result.code).toBe(1)',
    why: "`check`'s exit 1 says it found errors, no refusal: the report on stdout, whose rules and line widths the test asserts, is what it says",
  },
  {
    file: 'test/e2e/areas/content/check-qa.test.ts',
    assertion: 'expect(raised.code).toBe(1)',
    why: "`content check`'s exit 1 says a rule the rules file raised found an error, no refusal: the findings per file, which the test asserts, are what it says",
  },
  {
    file: 'test/e2e/areas/content/check-qa.test.ts',
    assertion: 'expect(result.code).toBe(1)',
    why: "`content check`'s exit 1 says it found errors, no refusal: the findings on stdout, which the test asserts rule by rule, are what it says",
  },
  {
    file: 'test/e2e/areas/content/audience.test.ts',
    assertion: 'expect(diff.code).toBe(1)',
    why: "`content diff`'s exit 1 says the records differ, no refusal: the patch it prints, which the test asserts line by line, is what it says",
  },
  {
    file: 'test/e2e/areas/content/restore.test.ts',
    assertion: 'expect(diff.code).toBe(1)',
    why: "`content diff --json`'s exit 1 says the records differ, no refusal: the JSON after it lists each record and how it stands, which the test asserts",
  },
  {
    file: 'test/e2e/core/content-never-quoted.test.ts',
    assertion: "expect(result.code, argv.join(' ')).not.toBe(0)",
    why: 'the commands of that loop name the broken file on different streams (content check reports on stdout, the others on stderr); what it asserts of their output is that neither stream quotes the file, and the message of each is checked by the tests of its own command',
  },
  {
    file: 'test/spawned/install-script.test.ts',
    assertion: 'expect(result.code).toBe(code)',
    why: 'a script ended by a signal says nothing, as a shell program does: its exit code (128 and the signal) and the partial download removed are what it leaves',
  },
  {
    file: 'test/unit/api/base-url.test.ts',
    assertion: 'expect((error as UsageError).exitCode).toBe(2)',
    why: 'in the helper `refusal`, which returns the error: each case that calls it checks the message (or the hint) of what it returns',
  },
  {
    file: 'test/spawned/render/pager.test.ts',
    assertion: 'expect(result.code).toBe(130)',
    why: 'a run in a terminal has one screen, which runInTerminal returns as stdout: the message, "Error: interrupted", is checked there',
  },
  {
    file: 'test/support/examples.ts',
    assertion: 'expect(result.code, `${line}\\n${result.stderr}`).not.toBe(0)',
    why: 'a documented session that shows an error: the session as shown, its Error: line included, is checked on stdout and stderr by notPrinted',
  },
  {
    file: 'test/support/examples.ts',
    assertion: 'expect(result.code, `${line}\\n${result.stderr}`).toBe(exits)',
    why: 'the exit code a documented example says it ends with (`# exits 5`), which is all the document says; where it shows the session, notPrinted checks the text',
  },
  {
    file: 'test/unit/core/bulk.test.ts',
    assertion: 'expect(run.result).toMatchObject({ value: { exitCode: 2, summary: { sent: 0, skipped: 0, failed: 13 } } })',
    why: "an import's summary, which carries no message: the failures it counts are checked line by line on the run's stderr just after",
  },
];

function testFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = posix.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'examples' && dir === 'test' ? [] : testFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

interface Expectation {
  node: ts.CallExpression;
  /** The expression given to `expect`. */
  subject: ts.Expression;
  matcher: string;
  negated: boolean;
  args: readonly ts.Expression[];
}

/** `expect(a, ...)[.not|.rejects|.resolves].matcher(b, ...)`, read from its outer call. */
function readExpectation(node: ts.CallExpression): Expectation | undefined {
  if (!ts.isPropertyAccessExpression(node.expression)) return undefined;
  const matcher = node.expression.name.text;
  let target: ts.Expression = node.expression.expression;
  let negated = false;
  while (ts.isPropertyAccessExpression(target) && ['not', 'rejects', 'resolves'].includes(target.name.text)) {
    if (target.name.text === 'not') negated = !negated;
    target = target.expression;
  }
  if (!ts.isCallExpression(target) || !ts.isIdentifier(target.expression) || target.expression.text !== 'expect') return undefined;
  const subject = target.arguments[0];
  if (subject === undefined) return undefined;
  return { node, subject, matcher, negated, args: node.arguments };
}

function strip(node: ts.Expression): ts.Expression {
  while (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isNonNullExpression(node) || ts.isAwaitExpression(node)) node = node.expression;
  return node;
}

/** What an expression is read from (a name), the properties on the way, and whether it was parsed as JSON. */
interface Path {
  base: string | undefined;
  names: string[];
  parsed: boolean;
}

/**
 * What a subject is read from, and the names on the way: `JSON.parse(result.stderr).error.message`
 * is read from `result` through `stderr`, `error`, `message`, and parsed. No base (an unnamed
 * result such as `(await run([...])).code`) when it starts with a call on anything but a name.
 */
function path(expression: ts.Expression): Path {
  const names: string[] = [];
  let parsed = false;
  let node = strip(expression);
  for (;;) {
    if (ts.isPropertyAccessExpression(node)) {
      names.unshift(node.name.text);
      node = strip(node.expression);
    } else if (ts.isElementAccessExpression(node)) {
      node = strip(node.expression);
    } else if (ts.isCallExpression(node)) {
      const callee = strip(node.expression);
      const first = node.arguments[0];
      if (callee.getText() === 'JSON.parse' && first !== undefined) {
        parsed = true;
        node = strip(first);
      } else if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'json' && first === undefined) {
        // `result.json()`: the result's stdout, parsed.
        parsed = true;
        names.unshift('stdout');
        node = strip(callee.expression);
      } else if (ts.isPropertyAccessExpression(callee) && !(ts.isIdentifier(strip(callee.expression)) && !TEXT_NAMES.has(callee.expression.getText()))) {
        // A method of the text or of a value read from it (`result.stderr.split('\n')`); a method
        // of a name (`sandbox.loopsctl([...])`) gives a result with no name.
        node = strip(callee.expression);
      } else if (ts.isIdentifier(callee) && first !== undefined && readsText(path(first))) {
        // A helper given a text (`lines(result.stderr)`) reads it; a call given anything else
        // (`run([...])`, `call(client, 'themes_get')`) makes a result of its own, with no name.
        node = strip(first);
      } else {
        return { base: undefined, names, parsed };
      }
    } else if (ts.isIdentifier(node)) {
      return { base: node.text, names, parsed };
    } else {
      return { base: undefined, names, parsed };
    }
  }
}

/** Whether a path reads a result's text: its stderr, stdout or message, or one destructured. */
function readsText(at: Path): boolean {
  return at.parsed || [...at.names, at.base].some((name) => name === 'stderr' || name === 'stdout' || name === 'message');
}

function isZero(value: ts.Expression): boolean {
  const node = strip(value);
  if (ts.isNumericLiteral(node)) return Number(node.text) === 0;
  if (ts.isPropertyAccessExpression(node) && node.expression.getText() === 'ExitCode') return node.name.text === 'ok';
  return false;
}

/** A value that says an exit code: a number, an `ExitCode` entry, or a name or an entry of a table (a case). */
function isExitValue(value: ts.Expression): boolean {
  const node = strip(value);
  if (ts.isNumericLiteral(node)) return true;
  if (ts.isPropertyAccessExpression(node)) return node.expression.getText() === 'ExitCode';
  if (ts.isElementAccessExpression(node)) return true;
  return ts.isIdentifier(node) && node.text !== 'undefined';
}

function properties(literal: ts.Expression | undefined): Map<string, ts.Expression> {
  const found = new Map<string, ts.Expression>();
  if (literal === undefined || !ts.isObjectLiteralExpression(strip(literal))) return found;
  for (const property of (strip(literal) as ts.ObjectLiteralExpression).properties) {
    if (ts.isPropertyAssignment(property) && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name)))
      found.set(property.name.text, property.initializer);
    else if (ts.isShorthandPropertyAssignment(property)) found.set(property.name.text, property.name);
  }
  return found;
}

/** Whether an object given to a matcher, at any depth, names a property `message`. */
function mentionsMessage(node: ts.Node): boolean {
  if ((ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node)) && node.name.getText().replace(/['"]/g, '') === 'message') return true;
  return ts.forEachChild(node, mentionsMessage) ?? false;
}

/** An object given to a matcher that checks the text: it names a `stderr` or a `message`. */
function objectGivesText(literal: ts.Expression | undefined): boolean {
  return [...properties(literal).keys()].some((name) => TEXT_NAMES.has(name));
}

/**
 * The exit code assertion an expectation makes: none, one that checks the message too (an object
 * that gives the code and the text side by side), or one that needs another assertion for it.
 */
function exitCodeAssertion(expectation: Expectation): 'none' | 'explained' | 'bare' {
  const { subject, matcher, negated, args } = expectation;
  const node = strip(subject);
  const given = args[0];
  const readsCode = (ts.isPropertyAccessExpression(node) && EXIT_NAMES.has(node.name.text)) || (ts.isIdentifier(node) && EXIT_NAMES.has(node.text));
  if (readsCode) {
    if (given !== undefined && ['toBe', 'toEqual', 'toStrictEqual'].includes(matcher))
      return (negated ? isZero(given) : isExitValue(given) && !isZero(given)) ? 'bare' : 'none';
    return ['toBeGreaterThan', 'toBeGreaterThanOrEqual'].includes(matcher) && !negated ? 'bare' : 'none';
  }
  if (negated || given === undefined) return 'none';
  // `expect([result.code, result.stderr]).toEqual([2, expect.stringContaining(...)])`.
  if (ts.isArrayLiteralExpression(node) && ts.isArrayLiteralExpression(strip(given))) {
    const values = (strip(given) as ts.ArrayLiteralExpression).elements;
    const codes = node.elements.filter((element, index) => {
      const read = strip(element);
      const value = values[index];
      return ts.isPropertyAccessExpression(read) && EXIT_NAMES.has(read.name.text) && value !== undefined && isExitValue(value) && !isZero(value);
    });
    if (codes.length === 0) return 'none';
    const texts = node.elements.filter((element) => path(element).names.some((name) => TEXT_NAMES.has(name)));
    return texts.length >= codes.length ? 'explained' : 'bare';
  }
  // An object, at any depth of what the matcher is given (`{ code: 2 }`, `{ error: { exitCode: 2 } }`).
  let found: 'none' | 'explained' | 'bare' = 'none';
  const visit = (at: ts.Node) => {
    if (ts.isFunctionLike(at)) return;
    if (ts.isObjectLiteralExpression(at)) {
      const own = properties(at);
      if ([...own].some(([name, value]) => EXIT_NAMES.has(name) && isExitValue(value) && !isZero(value))) {
        const explained = objectGivesText(at);
        if (!explained || found === 'none') found = explained ? 'explained' : 'bare';
      }
    }
    ts.forEachChild(at, visit);
  };
  visit(given);
  return found;
}

/**
 * Whether an expectation checks the text of its subject's refusal: its stderr (exactly, even as
 * empty, or a part of it), its message, or a JSON error's message (on stderr or stdout). Plain
 * stdout does not count: it holds what the command printed before it stopped, not why.
 */
function checksText(expectation: Expectation, at: Path): boolean {
  const { matcher, negated, args } = expectation;
  if (negated || !TEXT_MATCHERS.has(matcher)) return false;
  const given = args[0];
  const { names, parsed } = at;
  // `result.stderr`, or a `stderr` destructured from a result that has no name.
  const reads = (name: string) => names.includes(name) || at.base === name;
  if (reads('message')) return true;
  if (reads('stderr') || reads('stdout')) {
    // A JSON error counts where its message is checked; `code: 'usage'` is what every usage error says.
    if (parsed) return given !== undefined && mentionsMessage(given);
    return reads('stderr') && given !== undefined;
  }
  if (matcher === 'toThrow' || matcher === 'toThrowError') return given !== undefined;
  return objectGivesText(given) || (given !== undefined && mentionsMessage(given));
}

/** The callback of `it(...)`/`test(...)` (also `.each`, `.skip`, `.only`, `.skipIf(...)`), if the call is one. */
function isTestCallback(node: ts.Node): boolean {
  const call = node.parent;
  if (call === undefined || !ts.isCallExpression(call) || !call.arguments.includes(node as ts.Expression)) return false;
  let callee: ts.Expression = call.expression;
  for (;;) {
    if (ts.isCallExpression(callee)) callee = callee.expression;
    else if (ts.isPropertyAccessExpression(callee)) callee = callee.expression;
    else break;
  }
  return ts.isIdentifier(callee) && ['it', 'test'].includes(callee.text);
}

/** A function a test file names to call from its tests: `function refusal(...)`, `const loads = async (...) =>`. */
function isHelper(node: ts.Node): boolean {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ((ts.isArrowFunction(node) || ts.isFunctionExpression(node)) && ts.isVariableDeclaration(node.parent))
  );
}

/** The test an expectation belongs to, or outside a test, the helper it is in. */
function scopeOf(node: ts.Node): ts.Node {
  let helper: ts.Node | undefined;
  for (let at = node.parent; at !== undefined; at = at.parent) {
    if (!ts.isFunctionLike(at)) continue;
    if (isTestCallback(at)) return at;
    if (helper === undefined && isHelper(at)) helper = at;
  }
  return helper ?? node.getSourceFile();
}

/**
 * The names a test gives to parts of a result, each with where it is read from:
 * `const { error } = JSON.parse(result.stderr)` makes `error` the parsed stderr of `result`.
 */
function aliases(scope: ts.Node): Map<string, Path> {
  const found = new Map<string, Path>();
  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && node.initializer !== undefined) {
      const from = path(node.initializer);
      if (from.base !== undefined) {
        const bind = (name: ts.BindingName, names: string[]) => {
          if (ts.isIdentifier(name)) {
            if (name.text !== from.base) found.set(name.text, { ...from, names });
          } else
            for (const element of name.elements) {
              if (ts.isOmittedExpression(element)) continue;
              const property = ts.isObjectBindingPattern(name) ? (element.propertyName ?? element.name).getText() : undefined;
              bind(element.name, property === undefined ? names : [...names, property]);
            }
        };
        bind(node.name, from.names);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(scope);
  return found;
}

/** The path of an expression through the names the test gave: `error.message` above is `result` → stderr, error, message. */
function resolvedPath(expression: ts.Expression, names: Map<string, Path>): Path {
  let at = path(expression);
  for (let steps = 0; at.base !== undefined && names.has(at.base) && steps < 10; steps += 1) {
    const alias = names.get(at.base)!;
    at = { base: alias.base, names: [...alias.names, ...at.names], parsed: alias.parsed || at.parsed };
  }
  return at;
}

interface Offender {
  file: string;
  line: number;
  assertion: string;
}

/** The exit code assertions in a file's source that no assertion on the message answers. */
function unexplainedRefusals(file: string, source: string): Offender[] {
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const expectations: Expectation[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const expectation = readExpectation(node);
      if (expectation !== undefined) expectations.push(expectation);
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  const offenders: Offender[] = [];
  for (const expectation of expectations) {
    if (exitCodeAssertion(expectation) !== 'bare') continue;
    const scope = scopeOf(expectation.node);
    const subject = strip(expectation.subject);
    const names = aliases(scope);
    // The result the code was read from: `result` of `result.code`; of a bare `code`, the destructured result (null).
    const codeBase =
      ts.isIdentifier(subject) && EXIT_NAMES.has(subject.text)
        ? null
        : resolvedPath(ts.isPropertyAccessExpression(subject) && EXIT_NAMES.has(subject.name.text) ? subject.expression : subject, names).base;
    const answered =
      codeBase !== undefined &&
      expectations.some((other) => {
        if (other === expectation || scopeOf(other.node) !== scope) return false;
        const at = resolvedPath(other.subject, names);
        if (!checksText(other, at)) return false;
        const otherBase = at.base;
        if (codeBase === null) return ts.isIdentifier(strip(other.subject)) || otherBase === 'stderr' || otherBase === 'stdout' || otherBase === 'message';
        return otherBase === codeBase;
      });
    if (answered) continue;
    const { line } = sourceFile.getLineAndCharacterOfPosition(expectation.node.getStart());
    offenders.push({ file, line: line + 1, assertion: expectation.node.getText().replace(/\s+/g, ' ') });
  }
  return offenders;
}

describe('unexplainedRefusals', () => {
  const check = (body: string) => unexplainedRefusals('x.test.ts', `it('refuses', async () => {\n${body}\n});`).map(({ line }) => line);

  it('finds an exit code checked without its message', () => {
    expect(check(`const result = await run(['x']);\nexpect(result.code).toBe(2);`)).toEqual([3]);
    expect(check(`const result = await run(['x']);\nexpect(result).toMatchObject({ code: 2, stdout: '' });`)).toEqual([3]);
    expect(check(`expect((await run(['x'])).code).toBe(4);`)).toEqual([2]);
    expect(check(`const { code } = await run(['x']);\nexpect(code).toBe(5);`)).toEqual([3]);
    expect(check(`await expect(call()).rejects.toMatchObject({ exitCode: 2 });`)).toEqual([2]);
    expect(check(`const r = await run(['x']);\nexpect(r.code).toBe(ExitCode.usage);`)).toEqual([3]);
    expect(check(`const r = await run(['x']);\nexpect(r.code).not.toBe(0);`)).toEqual([3]);
    expect(check(`const r = await call('x');\nexpect(r).toMatchObject({ isError: true, structuredContent: { error: { exitCode: 2 } } });`)).toEqual([3]);
    expect(check(`const r = await run(['x']);\nexpect([r.code, r.stdout]).toEqual([2, '']);`)).toEqual([3]);
    expect(check(`const r = await run(['x']);\nexpect(r.code).toBe(EXIT_CODES[failure]);`)).toEqual([3]);
  });

  it('does not take another result, stdout, a negation or the code of a JSON error for the message', () => {
    expect(check(`const a = await run(['x']);\nconst b = await run(['y']);\nexpect(a.code).toBe(2);\nexpect(b.stderr).toContain('no');`)).toEqual([4]);
    expect(check(`const a = await run(['x']);\nexpect(a.code).toBe(2);\nexpect(a.stdout).toBe('');`)).toEqual([3]);
    expect(check(`const a = await run(['x']);\nexpect(a.code).toBe(2);\nexpect(a.stderr).not.toContain('Unknown');`)).toEqual([3]);
    expect(
      check(`const a = await run(['x']);\nexpect(a.code).toBe(2);\nexpect(JSON.parse(a.stderr).error).toMatchObject({ code: 'usage', exitCode: 2 });`),
    ).toEqual([3, 4]);
    expect(check(`const a = await run(['x']);\nexpect(a.code).toBe(4);\nexpect(JSON.parse(a.stderr).error.code).toBe('not_found');`)).toEqual([3]);
    expect(check(`const a = await run(['x']);\nexpect(a.code).toBe(4);\nexpect(a.stdout).toContain('grp_1');`)).toEqual([3]);
    expect(check(`const a = await run(['x']);\nexpect(a.code).toBe(2);\nexpect(a.stderr.length).toBeGreaterThan(0);`)).toEqual([3]);
    expect(check(`expect((await sandbox.loopsctl(['x'])).code).toBe(4);\nexpect((await sandbox.loopsctl(['y'])).stderr).toContain('no');`)).toEqual([2]);
    expect(
      check(
        `const a = await call(client, 'x');\nconst b = await call(client, 'y');\nexpect(a.error).toMatchObject({ exitCode: 4 });\nexpect(b.error).toMatchObject({ exitCode: 2, message: 'no' });`,
      ),
    ).toEqual([4]);
    expect(check(`const a = await run(['x']);\nexpect(a.code).toBe(1);\nconst [first] = a.json();\nexpect(first.errors).toEqual([{ rule: 'x' }]);`)).toEqual([
      3,
    ]);
    const helpers = `function refused(args) {\n  const result = run(args);\n  expect(result.code).toBe(2);\n}\nit('uses it', () => {\n  const result = run(['y']);\n  expect(result.stderr).toContain('no');\n});`;
    expect(unexplainedRefusals('x.test.ts', helpers).map(({ line }) => line)).toEqual([3]);
  });

  it('takes the message wherever it is checked on the same result', () => {
    expect(check(`const a = await run(['x']);\nexpect(a.code).toBe(2);\nexpect(a.stderr).toContain('--limit must be a whole number');`)).toEqual([]);
    expect(check(`const a = await run(['x']);\nexpect(a).toMatchObject({ code: 2, stderr: expect.stringContaining('no') });`)).toEqual([]);
    expect(
      check(`const a = await run(['x']);\nexpect(a.code).toBe(2);\nexpect(JSON.parse(a.stderr).error).toMatchObject({ exitCode: 2, message: 'no' });`),
    ).toEqual([]);
    expect(check(`const a = await run(['x']);\nexpect(a.code).toBe(2);\nexpect(JSON.parse(a.stderr).error.message).toMatch(/no/);`)).toEqual([]);
    expect(check(`const { code, stderr } = await run(['x']);\nexpect(code).toBe(2);\nexpect(stderr).toContain('no');`)).toEqual([]);
    expect(check(`const error = await f().catch((e) => e);\nexpect((error as UsageError).exitCode).toBe(2);\nexpect(error.message).toBe('no');`)).toEqual([]);
    expect(check(`await expect(call()).rejects.toMatchObject({ exitCode: 2, message: 'no' });`)).toEqual([]);
    expect(
      check(`const a = await run(['x']);\nexpect(a.code).toBe(9);\nconst { error } = JSON.parse(a.stderr);\nexpect(error.message).toContain('the body');`),
    ).toEqual([]);
    expect(
      check(`const a = await run(['x']);\nexpect(a.code).toBe(1);\nconst [first] = a.json();\nexpect(first.errors).toEqual([{ rule: 'x', message: 'no' }]);`),
    ).toEqual([]);
    expect(check(`const { stderr, code } = await run(['x']);\nexpect(code).toBe(2);\nexpect(stderr.split('\\n')[0]).toBe('Error: no');`)).toEqual([]);
    expect(check(`const a = await run(['x']);\nexpect(a.code).toBe(2);\nexpect(lines(a.stderr)).toEqual(['Error: no']);`)).toEqual([]);
    expect(check(`const a = await run(['x']);\nexpect(a.code).toBe(4);\nexpect(JSON.parse(a.stdout)).toMatchObject({ error: { message: 'no' } });`)).toEqual(
      [],
    );
    expect(check(`const a = await run(['x']);\nexpect(a.code).toBe(130);\nexpect(a.stderr).toBe('');`)).toEqual([]);
    expect(check(`const r = await call('x');\nexpect(r).toMatchObject({ structuredContent: { error: { exitCode: 2, message: 'no' } } });`)).toEqual([]);
    expect(check(`const r = await run(['x']);\nexpect([r.code, r.stderr]).toEqual([2, expect.stringContaining('no')]);`)).toEqual([]);
    expect(check(`const a = await run(['x']);\nexpect(a.code).toBe(0);`)).toEqual([]);
  });
});

describe('the tests of refusals', () => {
  // Every exit code assertion names `code` or `exitCode`: a file whose text names neither holds none
  // and is not parsed (about half of them).
  const offenders = testFiles('test').flatMap((file) => {
    const source = readFileSync(join(root, file), 'utf8');
    return /\b(?:code|exitCode)\b/.test(source) ? unexplainedRefusals(file, source) : [];
  });
  const allowed = (offender: Offender) => ALLOWED.some(({ file, assertion }) => file === offender.file && assertion === offender.assertion);

  it('check the message of each refusal, not only its exit code', () => {
    expect(
      offenders.filter((offender) => !allowed(offender)).map(({ file, line, assertion }) => `${file}:${line}: ${assertion}`),
      'an exit code checked without the message that explains it: assert on stderr, the message or the JSON error message too',
    ).toEqual([]);
  });

  it('allow only exit code checks that still exist', () => {
    expect(ALLOWED.filter((entry) => !offenders.some((offender) => offender.file === entry.file && offender.assertion === entry.assertion))).toEqual([]);
  });
});
