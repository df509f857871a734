/**
 * The Go package `loopsctl types --format go` writes, read by the grammar of the lines it writes,
 * for machines without a Go toolchain: every line must be one of a few shapes (a comment, the
 * package clause, a constant, a struct and its fields, a Payload method), blocks must close, and
 * every name a line uses must be declared once. Where `go` is installed, `goRun` compiles the
 * package with a program that uses it.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp.js';

const IDENT = '[A-Za-z_][A-Za-z0-9_]*';
/** A Go interpreted string as loopsctl writes it: JSON's escapes only. */
const STRING = String.raw`"(?:[^"\\\n]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"`;
const TYPE = String.raw`\*?(?:string|float64|bool)|any`;

export interface GoField {
  name: string;
  type: string;
  /** The json tag's name, and whether it has omitempty. */
  json: string;
  omitempty: boolean;
}

export interface GoPackage {
  constants: Map<string, string>;
  /** Each struct's fields; an embedded struct is a field of that type with no json tag. */
  structs: Map<string, GoField[]>;
  /** Each Payload method: its receiver, what it returns, and the fields of the value it returns. */
  payloads: { receiver: string; returns: string; fields: Map<string, string> }[];
}

/** A struct tag's name as encoding/json takes it: letters, digits and a few marks, never a quote, a backslash or a comma. */
function jsonName(name: string): boolean {
  return name !== '' && [...name].every((char) => /[\p{L}\p{Nd}]/u.test(char) || '!#$%&()*+-./:;<=>?@[]^_{|}~ '.includes(char));
}

const LINES: [string, RegExp][] = [
  ['comment', /^\/\/ .*$/],
  ['package', /^package loops$/],
  ['const', /^const \($/],
  ['constant', new RegExp(String.raw`^\t(${IDENT}) +\= (${STRING})$`)],
  ['struct', new RegExp(String.raw`^type (${IDENT}) struct \{$`)],
  ['empty struct', new RegExp(String.raw`^type (${IDENT}) struct\{\}$`)],
  ['field', new RegExp(String.raw`^\t(${IDENT}) +(${TYPE}) +\x60json:"([^"\x60\\,]*)(,omitempty)?"\x60$`)],
  ['embedded', new RegExp(String.raw`^\t\*(${IDENT})$`)],
  ['method', new RegExp(String.raw`^func \(d (${IDENT})\) Payload\(email string\) (${IDENT}) \{$`)],
  ['return', new RegExp(String.raw`^\treturn (${IDENT})\{(.*)\}$`)],
  ['close', /^[})]$/],
  ['blank', /^$/],
];

/** The package's declarations; throws naming the first line of no known shape, a block left open, or a name used but not declared. */
export function readGoPackage(text: string): GoPackage {
  const found: GoPackage = { constants: new Map(), structs: new Map(), payloads: [] };
  const declared = new Set<string>();
  const declare = (name: string) => {
    if (declared.has(name)) throw new Error(`${name} is declared twice`);
    declared.add(name);
  };
  let block: 'const' | 'struct' | 'method' | undefined;
  let fields: GoField[] = [];
  let payload: GoPackage['payloads'][number] | undefined;
  const lines = text.split('\n');
  if (lines.pop() !== '') throw new Error('the file does not end with a line break');
  for (const [number, line] of lines.entries()) {
    const [shape, match] = LINES.map(([name, pattern]) => [name, pattern.exec(line)] as const).find(([, result]) => result !== null) ?? [];
    const where = `line ${number + 1} (${JSON.stringify(line)})`;
    const inside = { constant: 'const', field: 'struct', embedded: 'struct', return: 'method' }[shape as string];
    if (shape === undefined || (inside !== undefined && block !== inside) || (inside === undefined && block !== undefined && shape !== 'close'))
      throw new Error(`${where} is not Go as loopsctl writes it here`);
    if (shape === 'const') block = 'const';
    else if (shape === 'constant') {
      declare(match![1]!);
      found.constants.set(match![1]!, JSON.parse(match![2]!) as string);
    } else if (shape === 'struct' || shape === 'empty struct') {
      declare(match![1]!);
      found.structs.set(match![1]!, (fields = []));
      if (shape === 'struct') block = 'struct';
    } else if (shape === 'field') {
      if (!jsonName(match![3]!)) throw new Error(`${where}: encoding/json takes no such tag name`);
      fields.push({ name: match![1]!, type: match![2]!, json: match![3]!, omitempty: match![4] !== undefined });
    } else if (shape === 'embedded') fields.push({ name: match![1]!, type: `*${match![1]}`, json: '', omitempty: true });
    else if (shape === 'method') {
      payload = { receiver: match![1]!, returns: match![2]!, fields: new Map() };
      found.payloads.push(payload);
      block = 'method';
    } else if (shape === 'return') {
      if (match![1] !== payload!.returns) throw new Error(`${where} returns what its method does not`);
      for (const pair of match![2]!.split(', ')) {
        const [field, value] = pair.split(': ');
        payload!.fields.set(field!, value!);
      }
    } else if (shape === 'close') {
      if (block === undefined || (line === ')') !== (block === 'const')) throw new Error(`${where} closes no block`);
      block = undefined;
    }
  }
  if (block !== undefined) throw new Error(`a ${block} block is left open`);
  for (const [struct, members] of found.structs) {
    const names = members.map((field) => field.name);
    if (new Set(names).size !== names.length) throw new Error(`${struct} has two fields of one name`);
    const embedded = members.find((field) => field.json === '' && !found.structs.has(field.name));
    if (embedded !== undefined) throw new Error(`${struct} embeds ${embedded.name}, which is not declared`);
  }
  for (const { receiver, returns, fields: values } of found.payloads) {
    const target = found.structs.get(returns);
    if (!found.structs.has(receiver) || target === undefined) throw new Error(`the Payload of ${receiver} names a type not declared`);
    for (const [field, value] of values) {
      if (!target.some((member) => member.name === field)) throw new Error(`${returns} has no field ${field}`);
      if (value !== 'email' && value !== 'd' && !found.constants.has(value!))
        throw new Error(`${receiver}'s Payload gives ${field} ${value}, which is not declared`);
    }
  }
  return found;
}

/** Whether a Go toolchain is on this machine. */
export const goInstalled = () => spawnSync('go', ['version'], { stdio: 'ignore' }).status === 0;

/**
 * Runs `main` (the body of package main's main, with encoding/json, fmt and the package imported
 * as `loops`) against the package, its build cache in a temporary directory: its output, and
 * what gofmt -l and the compiler said.
 */
export function goRun(packageText: string, main: string): { stdout: string; stderr: string; unformatted: string } {
  const dir = tempDir();
  mkdirSync(join(dir, 'loops'));
  writeFileSync(join(dir, 'loops', 'loops.go'), packageText);
  writeFileSync(join(dir, 'go.mod'), 'module example.com/app\n\ngo 1.18\n');
  writeFileSync(
    join(dir, 'main.go'),
    `package main\n\nimport (\n\t"encoding/json"\n\t"fmt"\n\n\t"example.com/app/loops"\n)\n\nvar _ = json.Marshal\nvar _ = fmt.Println\n\nfunc main() {\n${main}\n}\n`,
  );
  const env = { ...process.env, GOCACHE: join(dir, '.cache'), GOPATH: join(dir, '.gopath'), GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local', GO111MODULE: 'on' };
  const unformatted = spawnSync('gofmt', ['-l', 'loops'], { cwd: dir, encoding: 'utf8', env }).stdout;
  const run = spawnSync('go', ['run', '.'], { cwd: dir, encoding: 'utf8', env });
  return { stdout: run.stdout, stderr: run.stderr, unformatted };
}
