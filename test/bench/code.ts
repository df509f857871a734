/**
 * `check --code` measured in process, in CPU time (medians of interleaved rounds):
 * - an app of CODE_FILES TypeScript files, one in twenty calling Loops: the scan as it is
 *   (scanCode: a file that names nothing the scanners look for passed over unparsed, the tree
 *   walked without allocating) against the scan as it was (every file parsed by Babel in full,
 *   comments attached, and walked by a generic walk that copied each node's entries);
 * - the worst cases: files of the largest size --code reads (2 MB) written to defeat the scanners,
 *   each against an ordinary 2 MB file of the same language.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from '@babel/parser';
import { MAX_SOURCE_BYTES } from '../../src/app-code/files.js';
import { scanCode, scanFile } from '../../src/app-code/scan.js';
import { median } from './measure.js';

export const CODE_FILES = Number(process.env.BENCH_CODE_FILES ?? 10_000);
const ROUNDS = 3;
const WORST_ROUNDS = 5;

/** A module of an app that does not call Loops: types, a component's logic, a helper, an object literal. */
function ordinaryModule(index: number): string {
  return `import { useMemo, useState } from 'react';
import type { Account, Invoice } from '../types/billing-${index % 40}';
import { formatMoney, formatDate } from '../util/format';

export interface Row${index} {
  id: string;
  label: string;
  amount: number;
  dueAt: Date | null;
  tags: readonly string[];
}

const COLUMNS = [
  { key: 'label', title: 'Label', width: 240 },
  { key: 'amount', title: 'Amount', width: 120, align: 'right' },
  { key: 'dueAt', title: 'Due', width: 160 },
] as const;

/** The rows of the table, sorted by due date, the overdue ones first. */
export function rowsOf${index}(account: Account, invoices: Invoice[], now: Date): Row${index}[] {
  const rows = invoices
    .filter((invoice) => invoice.accountId === account.id && invoice.status !== 'void')
    .map((invoice) => ({
      id: invoice.id,
      label: \`\${account.name} – \${invoice.number}\`,
      amount: invoice.totalCents / 100,
      dueAt: invoice.dueAt ? new Date(invoice.dueAt) : null,
      tags: invoice.lines.map((line) => line.sku).filter(Boolean),
    }));
  return rows.sort((a, b) => {
    const overdue = (row: Row${index}) => (row.dueAt !== null && row.dueAt < now ? 0 : 1);
    return overdue(a) - overdue(b) || (a.dueAt?.getTime() ?? Infinity) - (b.dueAt?.getTime() ?? Infinity);
  });
}

export function useTable${index}(account: Account, invoices: Invoice[]) {
  const [page, setPage] = useState(0);
  const [query, setQuery] = useState('');
  const rows = useMemo(() => rowsOf${index}(account, invoices, new Date()), [account, invoices]);
  const shown = rows.filter((row) => row.label.toLowerCase().includes(query.toLowerCase())).slice(page * 25, page * 25 + 25);
  return {
    columns: COLUMNS,
    rows: shown.map((row) => ({ ...row, amount: formatMoney(row.amount, account.currency), dueAt: row.dueAt && formatDate(row.dueAt) })),
    next: () => setPage((current) => current + 1),
    previous: () => setPage((current) => Math.max(0, current - 1)),
    search: setQuery,
  };
}
`;
}

/** A module that sends: a transactional email and an event, as an app's mailer does. */
function sendingModule(index: number): string {
  return `${ordinaryModule(index)}
import { LoopsClient } from 'loops';
const loops = new LoopsClient(process.env.LOOPS_API_KEY!);

export async function notify${index}(email: string, invoice: Invoice) {
  await loops.sendTransactionalEmail({
    transactionalId: 'cm0invoice${String(index).padStart(16, '0')}',
    email,
    dataVariables: { number: invoice.number, total: invoice.totalCents / 100 },
  });
  await loops.sendEvent({ email, eventName: 'invoice_sent', eventProperties: { total: invoice.totalCents } });
}
`;
}

/** The app: CODE_FILES modules in folders of a hundred, one in twenty sending. */
function writeApp(root: string): void {
  for (let index = 0; index < CODE_FILES; index += 1) {
    const folder = join(root, `feature-${Math.floor(index / 100)}`);
    if (index % 100 === 0) mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `module-${index}.ts`), index % 20 === 0 ? sendingModule(index) : ordinaryModule(index));
  }
}

interface Node {
  type: string;
  [field: string]: unknown;
}

/** The generic walk the scan used before: every node's entries copied. */
function* nodesAsBefore(root: Node): Generator<Node> {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) pending.push(value[index]);
    } else if (typeof value === 'object' && value !== null && typeof (value as Node).type === 'string') {
      yield value as Node;
      for (const [field, child] of Object.entries(value)) if (field !== 'loc' && typeof child === 'object' && child !== null) pending.push(child);
    }
  }
}

/** The scan as it was: every file read, parsed in full and walked; the object literals counted, where the rules then read them. */
function scanAsBefore(root: string): number {
  let objects = 0;
  const pending = [root];
  while (pending.length > 0) {
    const directory = pending.pop()!;
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) pending.push(path);
      else {
        const tree = parse(readFileSync(path, 'utf8'), { sourceType: 'unambiguous', errorRecovery: true, plugins: ['typescript'] });
        for (const node of nodesAsBefore(tree as unknown as Node)) if (node.type === 'ObjectExpression') objects += 1;
      }
    }
  }
  return objects;
}

const cpuMs = (job: () => unknown): number => {
  const started = process.cpuUsage();
  job();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
};

export interface CodeFigure {
  now: number;
  before: number;
  uses: number;
  passed: number;
}

/** The app scanned both ways, round after round, each round in a rotated order. */
export function measureCodeScan(): CodeFigure {
  const root = mkdtempSync(join(tmpdir(), 'loopsctl-bench-code-'));
  try {
    writeApp(root);
    const now: number[] = [];
    const before: number[] = [];
    let uses = 0;
    let passed = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      const scanNow = () =>
        now.push(
          cpuMs(() => {
            const scan = scanCode([root]);
            uses = scan.uses.length;
            passed = scan.filesPassed;
          }),
        );
      const scanBefore = () => before.push(cpuMs(() => scanAsBefore(root)));
      for (const scan of round % 2 === 0 ? [scanNow, scanBefore] : [scanBefore, scanNow]) scan();
    }
    if (uses !== (CODE_FILES / 20) * 2) throw new Error(`the scan found ${uses} uses, not the app's ${(CODE_FILES / 20) * 2}`);
    return { now: median(now), before: median(before), uses, passed };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** A file of the largest size --code reads: the unit again and again. */
const largest = (unit: string, prefix = '') => prefix + unit.repeat(Math.floor((MAX_SOURCE_BYTES - prefix.length) / unit.length));

const ORDINARY: Record<string, string> = {
  '.py':
    'def send_reset(user, url):\n    """Sends the reset email."""\n    loops.send_transactional_email(transactional_id="c1", email=user.email, data_variables={"resetUrl": url, "name": user.name})\n\n',
  '.go':
    'func sendReset(ctx context.Context, u User) error {\n\treturn client.SendTransactional(ctx, loops.Transactional{TransactionalID: "c1", Email: u.Email, DataVariables: map[string]any{"name": u.Name}})\n}\n\n',
  '.rb': 'def send_reset(user)\n  Loops.send_transactional_email(transactional_id: "c1", email: user.email, data_variables: { name: user.name })\nend\n\n',
  '.php':
    "<?php function sendReset($u) { $loops->transactional->send(['transactionalId' => 'c1', 'email' => $u->email, 'dataVariables' => ['name' => $u->name]]); }\n",
};

/** The inputs written to defeat the scanners, each with the language whose ordinary file it is compared with. */
export const WORST_CASES: { name: string; file: string; text: () => string }[] = [
  { name: 'unclosed data_variables maps (Python)', file: 'maps.py', text: () => largest('data_variables={') },
  { name: "Go's map type nested (Go)", file: 'types.go', text: () => largest('[string', 'x := data_variables=') },
  { name: 'unclosed mailing_lists maps (Ruby)', file: 'lists.rb', text: () => largest('mailing_lists: {"a" => ') },
  { name: 'brackets past the token budget (PHP)', file: 'nested.php', text: () => largest('(') },
];

/** Each worst case's CPU time over an ordinary file's of the same size and language. */
export function measureWorstCases(): { name: string; worst: number; ordinary: number }[] {
  return WORST_CASES.map(({ name, file, text }) => {
    const extension = file.slice(file.lastIndexOf('.'));
    const worstText = text();
    const ordinaryText = largest(ORDINARY[extension]!);
    const worst: number[] = [];
    const ordinary: number[] = [];
    for (let round = 0; round < WORST_ROUNDS; round += 1) {
      worst.push(cpuMs(() => scanFile(file, worstText)));
      ordinary.push(cpuMs(() => scanFile(file, ordinaryText)));
    }
    return { name, worst: median(worst), ordinary: median(ordinary) };
  });
}
