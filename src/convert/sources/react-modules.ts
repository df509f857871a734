/**
 * The modules of the app a React Email template imports its values from (`import { steps } from
 * './steps'`), read for the values they write out in full, never run: a module is read only when
 * every statement of it is a declaration of literals (constants, exports, types). One that does
 * anything else when it loads (a call, a function, an import of another value) is not read at all,
 * and the import is listed. Only files inside the directory convert was given are read, no larger
 * than an email, never through a link.
 */
import { parse } from '@babel/parser';
import type { Findings, Place } from '../model.js';
import { type Static, StaticReader, UNKNOWN } from './react-values.js';

// biome-ignore lint/suspicious/noExplicitAny: Babel's node types are not a dependency of the build
type Node = any;

/** Reads a module an import names, from the file that imports it: its file and text, or undefined where there is none convert may read. */
export type ModuleReader = (specifier: string, from: Place) => { file: string; text: string } | undefined;

/** The extensions an import may leave out, in the order bundlers try them. */
export const MODULE_EXTENSIONS = ['', '.ts', '.tsx', '.js', '.jsx', '.json', '/index.ts', '/index.js'];

/** Statements a module of literals holds: declarations, exports of them, and types. */
const LITERAL_STATEMENTS = new Set(['VariableDeclaration', 'TSTypeAliasDeclaration', 'TSInterfaceDeclaration', 'EmptyStatement']);

/** A module's exported values, each known, or why the module is not read. */
function readValues(file: string, text: string): Map<string, Static> | string {
  if (file.endsWith('.json')) {
    try {
      return new Map([['default', JSON.parse(text) as Static]]);
    } catch {
      return 'not JSON that parses';
    }
  }
  let program: Node;
  try {
    program = parse(text, { sourceType: 'module', plugins: ['jsx', 'typescript'] }).program;
  } catch {
    return 'not JavaScript or TypeScript that parses';
  }
  const declared = new Map<string, Node>();
  const exported = new Map<string, string>();
  for (const statement of program.body as Node[]) {
    const inner = statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration' ? statement.declaration : statement;
    if (statement.type === 'ImportDeclaration' && statement.importKind === 'type') continue;
    if (statement.type === 'ExportNamedDeclaration' && inner === null && statement.source === null) {
      for (const specifier of statement.specifiers as Node[]) exported.set(specifier.exported.name, specifier.local.name);
      continue;
    }
    if (statement.type === 'ExportDefaultDeclaration' && !LITERAL_STATEMENTS.has(inner?.type)) {
      declared.set('#default', inner);
      exported.set('default', '#default');
      continue;
    }
    if (!LITERAL_STATEMENTS.has(inner?.type) || (inner.type === 'VariableDeclaration' && inner.kind !== 'const'))
      return 'it does more than declare literals when it loads';
    if (inner.type !== 'VariableDeclaration') continue;
    for (const declarator of inner.declarations as Node[]) {
      if (declarator.id.type !== 'Identifier') return 'it does more than declare literals when it loads';
      declared.set(declarator.id.name, declarator.init);
      if (statement.type === 'ExportNamedDeclaration') exported.set(declarator.id.name, declarator.id.name);
    }
  }
  const reader = new StaticReader((name) => declared.get(name));
  const values = new Map<string, Static>();
  for (const [name, local] of declared) {
    const value = reader.value(declared.get(name));
    if (value === UNKNOWN) return `${local === '#default' ? 'its default export' : name} is not a literal`;
  }
  for (const [name, local] of exported) values.set(name, reader.value(declared.get(local)) as Static);
  return values;
}

/** The values a template imports from modules of the app, read as they are asked for, each module once. */
export class ImportedValues {
  /** Local name -> the module and the name it is exported under. */
  private readonly imports = new Map<string, { specifier: string; name: string; at: Place }>();
  private readonly modules = new Map<string, Map<string, Static> | undefined>();

  constructor(
    private readonly read: ModuleReader | undefined,
    private readonly findings: Findings,
  ) {}

  /** Notes an import of the app's own (a relative path). */
  note(local: string, specifier: string, name: string, at: Place): void {
    if (specifier.startsWith('.')) this.imports.set(local, { specifier, name, at });
  }

  /** A name's value as its module exports it, or undefined where it is not imported, or its module is not read. */
  value(local: string): { value: Static } | undefined {
    const imported = this.imports.get(local);
    if (imported === undefined || this.read === undefined) return undefined;
    if (!this.modules.has(imported.specifier)) this.modules.set(imported.specifier, this.load(imported.specifier, imported.at));
    const values = this.modules.get(imported.specifier);
    return values?.has(imported.name) ? { value: values.get(imported.name) } : undefined;
  }

  private load(specifier: string, at: Place): Map<string, Static> | undefined {
    const module = this.read!(specifier, at);
    const values = module === undefined ? 'not a file of the directory convert reads' : readValues(module.file, module.text);
    if (typeof values !== 'string') return values;
    this.findings.add(
      at,
      `the values imported from ${specifier}`,
      'listed',
      `not read: ${values}, and convert runs nothing`,
      'write the values in the template, or in a module that only declares them',
    );
    return undefined;
  }
}
