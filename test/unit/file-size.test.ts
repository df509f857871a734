/**
 * The sizes the building code sets (docs/development.md): no file under src/ or bin/ over 600 lines or
 * 24,000 characters (so a file cannot meet its cap by widening its lines), and no function over 100
 * lines unless a comment directly above it says why it must be "one piece".
 * Functions are measured with the TypeScript compiler's own parse, so an arrow, a method or a
 * function expression counts as a function declaration does.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const MAX_FILE_LINES = 600;
const MAX_FILE_CHARACTERS = 24_000;
const MAX_FUNCTION_LINES = 100;
const EXCUSE = /\bone piece\b/i;
const { forEachChild } = ts;

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = posix.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|cts|mts|js|cjs|mjs)$/.test(entry.name) && !/\.d\.[cm]?ts$/.test(entry.name) ? [path] : [];
  });
}

/** Characters as a reader counts them: code points, so a character outside the BMP counts once. */
function characterCount(text: string): number {
  return [...text].length;
}

function lineCount(text: string): number {
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

type FunctionNode = ts.FunctionLikeDeclaration;

/** The kinds of node that are functions, compared by number: a visit meets every node of src/, and each `ts.isX` is a call through the module's namespace. */
const FUNCTION_KINDS: ReadonlySet<ts.SyntaxKind> = new Set([
  ts.SyntaxKind.FunctionDeclaration,
  ts.SyntaxKind.FunctionExpression,
  ts.SyntaxKind.ArrowFunction,
  ts.SyntaxKind.MethodDeclaration,
  ts.SyntaxKind.Constructor,
  ts.SyntaxKind.GetAccessor,
  ts.SyntaxKind.SetAccessor,
]);

function isFunction(node: ts.Node): node is FunctionNode {
  return FUNCTION_KINDS.has(node.kind);
}

/** The node whose leading comment speaks for a function: itself, or the statement or property it is the value (or an argument) of. */
function holderOf(node: ts.Node): ts.Node {
  let holder = node;
  while (
    holder.parent !== undefined &&
    !ts.isSourceFile(holder.parent) &&
    !ts.isBlock(holder.parent) &&
    !ts.isClassLike(holder.parent) &&
    !ts.isObjectLiteralExpression(holder.parent) &&
    (ts.isVariableDeclaration(holder.parent) ||
      ts.isVariableDeclarationList(holder.parent) ||
      ts.isVariableStatement(holder.parent) ||
      ts.isPropertyAssignment(holder.parent) ||
      ts.isPropertyDeclaration(holder.parent) ||
      ts.isExportAssignment(holder.parent) ||
      ts.isCallExpression(holder.parent) ||
      ts.isParenthesizedExpression(holder.parent) ||
      ts.isAsExpression(holder.parent) ||
      ts.isSatisfiesExpression(holder.parent))
  )
    holder = holder.parent;
  return holder;
}

function excused(source: ts.SourceFile, node: ts.Node): boolean {
  const text = source.getFullText();
  const seen = new Set<ts.Node>([node, holderOf(node)]);
  return [...seen].some((each) => (ts.getLeadingCommentRanges(text, each.getFullStart()) ?? []).some((range) => EXCUSE.test(text.slice(range.pos, range.end))));
}

/** Every function of a source longer than the limit and not excused, as `file:line name (n lines)`. */
function longFunctions(file: string, text: string, limit = MAX_FUNCTION_LINES): string[] {
  // A file of no more lines than the limit holds no function longer: it need not be parsed.
  if (lineCount(text) <= limit) return [];
  const kind = file.endsWith('.ts') || file.endsWith('.mts') || file.endsWith('.cts') ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (isFunction(node) && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > limit && !excused(source, node)) {
        const holder = holderOf(node);
        const name =
          node.name?.getText(source) ??
          (ts.isVariableStatement(holder)
            ? holder.declarationList.declarations[0]!.name.getText(source)
            : ts.isPropertyAssignment(holder)
              ? holder.name.getText(source)
              : '(anonymous)');
        found.push(`${file}:${first + 1} ${name} (${lines} lines)`);
      }
    }
    forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('sizes under src/ and bin/', () => {
  const files = [...sourceFiles('src'), ...sourceFiles('bin')];

  it('reads the whole of src/ and bin/', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files).toContain('bin/loopsctl.js');
  });

  it(`has no file over ${MAX_FILE_LINES} lines`, () => {
    const large = files.map((file) => ({ file, lines: lineCount(readFileSync(join(root, file), 'utf8')) })).filter(({ lines }) => lines > MAX_FILE_LINES);
    expect(large.map(({ file, lines }) => `${file} (${lines} lines)`)).toEqual([]);
  });

  it(`has no file over ${MAX_FILE_CHARACTERS} characters`, () => {
    const large = files
      .map((file) => ({ file, characters: characterCount(readFileSync(join(root, file), 'utf8')) }))
      .filter(({ characters }) => characters > MAX_FILE_CHARACTERS);
    expect(large.map(({ file, characters }) => `${file} (${characters} characters)`)).toEqual([]);
  });

  it(`has no function over ${MAX_FUNCTION_LINES} lines without a comment saying why it is one piece`, () => {
    expect(files.flatMap((file) => longFunctions(file, readFileSync(join(root, file), 'utf8')))).toEqual([]);
  });
});

describe('the measure of a file', () => {
  it('counts characters, not bytes nor UTF-16 units', () => {
    expect(characterCount('héllo 😀')).toBe(7);
  });
});

describe('the measure of a function', () => {
  const body = (lines: number) => Array.from({ length: lines - 2 }, (_, at) => `  call(${at});`).join('\n');

  it('finds a long function, arrow and method', () => {
    const text = [
      `function long() {\n${body(101)}\n}`,
      `export const arrow = async () => {\n${body(101)}\n};`,
      `class Holder {\n  method() {\n${body(101)}\n  }\n}`,
    ].join('\n');
    expect(longFunctions('x.ts', text).map((found) => found.replace(/:\d+/, ''))).toEqual([
      'x.ts long (101 lines)',
      'x.ts arrow (101 lines)',
      'x.ts method (101 lines)',
    ]);
  });

  it('lets a function of 100 lines be', () => {
    expect(longFunctions('x.ts', `function fits() {\n${body(100)}\n}`)).toEqual([]);
  });

  it('excuses a function with a comment directly above saying it is one piece, and only that one', () => {
    const text = [
      `/** A state machine: its cases read best side by side, so it is one piece. */\nexport const machine = () => {\n${body(120)}\n};`,
      `// The seed is data: one piece.\nconst seed = lazily(() => {\n${body(120)}\n});`,
      `// Not excused: the words are elsewhere.\nfunction other() {\n${body(120)}\n}`,
    ].join('\n');
    expect(longFunctions('x.ts', text).map((found) => found.replace(/:\d+/, ''))).toEqual(['x.ts other (120 lines)']);
  });
});
