/** Tables fitted to the terminal: widths, shortening, dropping, cutting, blocks, streaming, and scale. */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { renderMetrics } from '../../../src/areas/transactional/render.js';
import type { Page } from '../../../src/base/shapes.js';
import { renderEmailMetrics } from '../../../src/core/email-metrics.js';
import { renderFields } from '../../../src/render/fields.js';
import { type ListView, writeList } from '../../../src/render/list.js';
import { Output } from '../../../src/render/output.js';
import { type Cell, type Column, renderRecord, renderTable, timestampColumn } from '../../../src/render/table.js';
import { displayWidth, truncate } from '../../../src/render/width.js';

const sink = () => new Writable({ write: (_chunk, _encoding, done) => done() });

function output(options: { tty: boolean; columns?: number; color?: boolean; json?: boolean }) {
  const writes: string[] = [];
  const stdout = Object.assign(
    new Writable({
      write(chunk, _encoding, done) {
        writes.push(String(chunk));
        done();
      },
    }),
    { isTTY: options.tty },
  );
  const out = new Output({ json: options.json ?? false, color: options.color ?? false, stdout, stderr: sink(), env: {}, columns: options.columns ?? 80 });
  return { out, text: () => writes.join(''), writes };
}

const terminal = (columns: number) => output({ tty: true, columns }).out;

/** A terminal with colour, its palette loaded as a run loads it. */
async function colourTerminal(columns: number): Promise<Output> {
  const { out } = output({ tty: true, columns, color: true });
  await out.loadPalette();
  return out;
}
const lines = (...text: string[]) => `${text.join('\n')}\n`;
const ESCAPES = /\x1b\[[\d;]*m/g;

const columns: Column[] = [{ header: 'ID' }, { header: 'NAME', truncate: true }, { header: 'DESCRIPTION', truncate: true }, timestampColumn('UPDATED')];
const rows: Cell[][] = [
  ['grp_1', 'Receipts', 'Order receipts and invoices sent after checkout', '2024-05-01T12:34:56.000Z'],
  ['grp_2', '注文確認メール', 'Japanese order confirmations', '2024-06-11T08:00:00.000Z'],
  ['grp_3', 'Password resets and sign-in links', '-', '2024-07-21T23:59:59.000Z'],
];

describe('tables on a terminal', () => {
  it('show every column whole when they fit, aligned by display width, with no lines between rows', () => {
    expect(renderTable(terminal(160), columns, rows)).toBe(
      lines(
        'ID     NAME                               DESCRIPTION                                      UPDATED',
        'grp_1  Receipts                           Order receipts and invoices sent after checkout  2024-05-01T12:34:56.000Z',
        'grp_2  注文確認メール                     Japanese order confirmations                     2024-06-11T08:00:00.000Z',
        'grp_3  Password resets and sign-in links  -                                                2024-07-21T23:59:59.000Z',
      ),
    );
  });

  it('shorten a timestamp to its date before anything else', () => {
    expect(renderTable(terminal(110), columns, rows)).toBe(
      lines(
        'ID     NAME                               DESCRIPTION                                      UPDATED',
        'grp_1  Receipts                           Order receipts and invoices sent after checkout  2024-05-01',
        'grp_2  注文確認メール                     Japanese order confirmations                     2024-06-11',
        'grp_3  Password resets and sign-in links  -                                                2024-07-21',
      ),
    );
  });

  it('at 80 columns drop the timestamp, then cut the longest text with an ellipsis', () => {
    expect(renderTable(terminal(80), columns, rows)).toBe(
      lines(
        'ID     NAME                               DESCRIPTION',
        'grp_1  Receipts                           Order receipts and invoices sent afte…',
        'grp_2  注文確認メール                     Japanese order confirmations',
        'grp_3  Password resets and sign-in links  -',
      ),
    );
  });

  it('at 60 columns cut the widest columns to a common width', () => {
    expect(renderTable(terminal(60), columns, rows)).toBe(
      lines(
        'ID     NAME                        DESCRIPTION',
        'grp_1  Receipts                    Order receipts and invoi…',
        'grp_2  注文確認メール              Japanese order confirmat…',
        'grp_3  Password resets and sign-…  -',
      ),
    );
  });

  it('never cut a wide character in half: the cell is padded instead', () => {
    const table = renderTable(terminal(33), columns, rows);
    expect(table).toContain('\ngrp_2  注文確認メ…   Japanese or…\n');
    expect(truncate('注文確認メール', 8)).toBe('注文確…');
    expect(truncate('注文確認メール', 7)).toBe('注文確…');
    expect(truncate('👩‍👩‍👧 family', 3)).toBe('👩‍👩‍👧…');
    expect(truncate('short', 5)).toBe('short');
  });

  it('never exceed the terminal, down to the width of the longest word', () => {
    for (let width = 26; width <= 130; width++) {
      for (const line of renderTable(terminal(width), columns, rows).trimEnd().split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(width);
    }
  });

  it('turn rows into blocks rather than cut several text columns to a few letters each', () => {
    const wide = [{ header: 'ID' }, { header: 'NAME', truncate: true }, { header: 'DESCRIPTION', truncate: true }, { header: 'FILTER', truncate: true }];
    const row = [
      'cptd30ckudge29hdrg6m3yqwh',
      'Engaged newsletter readers',
      'Opted in, signed up last autumn',
      'opt-in accepted and signedUpAt between two dates',
    ];
    // 60 columns leave the three text columns 9 or 10 each: too little to read; blocks keep them whole.
    expect(renderTable(terminal(60), wide, [row])).toMatch(/^ID: {11}cptd30ckudge29hdrg6m3yqwh\nNAME: {9}Engaged newsletter readers\n/);
    expect(renderTable(terminal(100), wide, [row]).split('\n')[1]).toMatch(/^cptd30ckudge29hdrg6m3yqwh {2}Engaged newsletter rea… {2}Opted in/);
  });

  it('cut free text before names, and names only when free text cannot give enough', () => {
    const listColumns: Column[] = [{ header: 'ID' }, { header: 'NAME', truncate: true }, { header: 'PUBLIC' }, { header: 'DESCRIPTION', prose: true }];
    const listRows = [
      ['co0gnzwtbvun8n3amky3gzsp4', 'Product updates', 'yes', 'Monthly product news and release notes'],
      ['ccr5wuhgixvhysmch2s25o20h', 'Beta testers', 'no', 'People trying features before everyone else'],
    ];
    expect(renderTable(terminal(80), listColumns, listRows)).toBe(
      lines(
        'ID                         NAME             PUBLIC  DESCRIPTION',
        'co0gnzwtbvun8n3amky3gzsp4  Product updates  yes     Monthly product news and re…',
        'ccr5wuhgixvhysmch2s25o20h  Beta testers     no      People trying features befo…',
      ),
    );
    // 61 columns: the description at its narrowest, and the name cut to what is left.
    expect(renderTable(terminal(61), listColumns, listRows).split('\n')[1]).toBe('co0gnzwtbvun8n3amky3gzsp4  Product upd…  yes     Monthly pro…');
  });

  it('turn rows into FIELD: value blocks when even cut columns do not fit', () => {
    expect(renderTable(terminal(26), columns, rows.slice(0, 2))).toBe(
      lines(
        'ID:',
        '  grp_1',
        'NAME:',
        '  Receipts',
        'DESCRIPTION:',
        '  Order receipts and',
        '  invoices sent after',
        '  checkout',
        'UPDATED:',
        '  2024-05-01T12:34:56.000Z',
        '',
        'ID:',
        '  grp_2',
        'NAME:',
        '  注文確認メール',
        'DESCRIPTION:',
        '  Japanese order',
        '  confirmations',
        'UPDATED:',
        '  2024-06-11T08:00:00.000Z',
      ),
    );
    // Ids and numbers are never cut, so a wide table of them turns into blocks, values beside labels.
    const numbers: Column[] = [{ header: 'ID' }, ...['SENDS', 'DELIVERIES', 'BOUNCES'].map((header) => ({ header, align: 'right' as const }))];
    expect(renderTable(terminal(30), numbers, [['tx_welcome', '1,200', '1,180', '15']])).toBe(
      lines('ID:          tx_welcome', 'SENDS:       1,200', 'DELIVERIES:  1,180', 'BOUNCES:     15'),
    );
  });

  it('paint colour after cutting, so a cut never falls inside an escape sequence', async () => {
    const red = (text: string) => `\x1b[31m${text}\x1b[39m`;
    const table = renderTable(await colourTerminal(40), columns, [['grp_1', { text: 'A rather long name for a group', paint: red }, 'Text', '-']]);
    expect(table).toContain('\x1b[1mID\x1b[22m');
    expect(table).toMatch(/\x1b\[31mA rather long name[^\x1b]*…\x1b\[39m/);
    for (const line of table.trimEnd().split('\n')) expect(displayWidth(line.replace(ESCAPES, ''))).toBeLessThanOrEqual(40);
  });

  it('count the columns a paint adds (a colour swatch) when aligning', async () => {
    const swatch = (text: string) => `\x1b[41m  \x1b[49m ${text}`;
    const table = renderTable(
      await colourTerminal(80),
      [{ header: 'COLOUR' }, { header: 'NAME' }],
      [
        [{ text: '#ff0000', paint: swatch }, 'red'],
        ['-', 'none'],
      ],
    );
    const plain = table.replace(ESCAPES, '').trimEnd().split('\n');
    expect(plain).toEqual(['COLOUR      NAME', '   #ff0000  red', '-           none']);
  });

  it('escape terminal controls and invisible characters in cells', () => {
    const table = renderTable(terminal(80), [{ header: 'NAME' }], [['evil\u202egnp.exe\u200b\u001b[2J']]);
    expect(table).toBe(lines('NAME', 'evil\\u202egnp.exe\\u200b\\x1b[2J'));
  });
});

describe('metrics', () => {
  const metrics = [
    {
      id: 'c1h3243uwicgpgajrgexlzdl5',
      name: 'Password reset',
      metrics: { sends: 52907, deliveries: 52518, hardBounces: 231, softBounces: 158, spamReports: 4 },
    },
    { id: 'clnbezeie7a6e97br15gg5obs', name: 'Payment failed', metrics: { sends: 0, deliveries: 0, hardBounces: 0, softBounces: 0, spamReports: 0 } },
  ];

  it('put long headers on two lines, then let the counts give way, keeping a table with names and rates at 80 columns', () => {
    expect(renderMetrics(terminal(80), metrics)).toBe(
      lines(
        '                                                   DELIVERY  BOUNCE   SPAM',
        'ID                         NAME             SENDS      RATE    RATE   RATE',
        'c1h3243uwicgpgajrgexlzdl5  Password reset  52,907    99.26%   0.74%  0.01%',
        'clnbezeie7a6e97br15gg5obs  Payment failed       0         -       -      -',
      ),
    );
    expect(renderMetrics(terminal(100), metrics).split('\n')[1]).toBe(
      'ID                         NAME             SENDS  DELIVERIES      RATE  BOUNCES    RATE   RATE',
    );
    expect(renderMetrics(terminal(160), metrics).split('\n')[0]).toBe(
      'ID                         NAME             SENDS  DELIVERIES  DELIVERY RATE  HARD BOUNCES  SOFT BOUNCES  BOUNCE RATE  SPAM REPORTS  SPAM RATE',
    );
  });

  it('show each email as a block when even the rates do not fit, never cutting a number', () => {
    expect(renderMetrics(terminal(60), metrics.slice(0, 1))).toBe(
      lines(
        'ID:             c1h3243uwicgpgajrgexlzdl5',
        'NAME:           Password reset',
        'SENDS:          52,907',
        'DELIVERIES:     52,518',
        'DELIVERY RATE:  99.26%',
        'HARD BOUNCES:   231',
        'SOFT BOUNCES:   158',
        'BOUNCE RATE:    0.74%',
        'SPAM REPORTS:   4',
        'SPAM RATE:      0.01%',
      ),
    );
  });

  it('keep plain numbers in rows for scripts', () => {
    expect(renderMetrics(output({ tty: false }).out, metrics.slice(0, 1))).toBe(
      lines(
        'ID\tNAME\tSENDS\tDELIVERIES\tDELIVERY RATE\tHARD BOUNCES\tSOFT BOUNCES\tBOUNCE RATE\tSPAM REPORTS\tSPAM RATE',
        'c1h3243uwicgpgajrgexlzdl5\tPassword reset\t52907\t52518\t99.26%\t231\t158\t0.74%\t4\t0.01%',
      ),
    );
  });

  it('take every rate over sends: fixture figures where another total would read differently', () => {
    // Over deliveries (960) the bounce rate would be 25.00% and the spam rate 2.50%.
    const row = { id: 'tx', name: 'Receipt', metrics: { sends: 1200, deliveries: 960, hardBounces: 150, softBounces: 90, spamReports: 24 } };
    expect(renderMetrics(output({ tty: false }).out, [row]).split('\n')[1]).toBe('tx\tReceipt\t1200\t960\t80.00%\t150\t90\t20.00%\t24\t2.00%');
  });
});

describe('engagement metrics', () => {
  // Delivered sends (4,000 - 500 bounced) or opens as the total would give 51.43%, 10.29% (or 20.00%), 1.71%, 14.29% and 0.57%.
  const row = {
    id: 'caln1ehk86xojuwevkh90qwhl',
    name: 'October newsletter',
    metrics: { sends: 4000, opens: 1800, clicks: 360, unsubscribes: 60, spamReports: 20, hardBounces: 320, softBounces: 180 },
  };

  it('take open, click, unsubscribe, bounce and spam rates over sends', () => {
    expect(renderEmailMetrics(output({ tty: false }).out, [row], { id: 'ID', name: 'NAME' })).toBe(
      lines(
        'ID\tNAME\tSENDS\tOPENS\tOPEN RATE\tCLICKS\tCLICK RATE\tUNSUBSCRIBES\tUNSUB RATE\tHARD BOUNCES\tSOFT BOUNCES\tBOUNCE RATE\tSPAM REPORTS\tSPAM RATE',
        'caln1ehk86xojuwevkh90qwhl\tOctober newsletter\t4000\t1800\t45.00%\t360\t9.00%\t60\t1.50%\t320\t180\t12.50%\t20\t0.50%',
      ),
    );
  });

  it('keep the id, the name and the rates at 80 columns', () => {
    const table = renderEmailMetrics(terminal(80), [row], { id: 'ID', name: 'NAME' });
    for (const line of table.trimEnd().split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(80);
    expect(table).toMatch(/^caln1ehk86xojuwevkh90qwhl {2}October news\S*\s+4,000\s+45\.00%\s+9\.00%\s+12\.50%\s+0\.50%$/m);
  });
});

describe('tables off a terminal', () => {
  it('stay tab-separated and whole, whatever the width', () => {
    const { out } = output({ tty: false, columns: 20 });
    expect(renderTable(out, columns, rows)).toBe(
      lines(
        'ID\tNAME\tDESCRIPTION\tUPDATED',
        'grp_1\tReceipts\tOrder receipts and invoices sent after checkout\t2024-05-01T12:34:56.000Z',
        'grp_2\t注文確認メール\tJapanese order confirmations\t2024-06-11T08:00:00.000Z',
        'grp_3\tPassword resets and sign-in links\t-\t2024-07-21T23:59:59.000Z',
      ),
    );
  });
});

describe('records', () => {
  const record = {
    id: 'cll42l54f20i1la0lfooe3z12',
    name: 'A long name that goes on past the end of a narrow line',
    draftEmailMessageContentRevisionId: 'crev42l54f20i1la0lfooe3z12',
    group: null,
  };

  it('wrap values beside the field names to the terminal', () => {
    expect(renderRecord(terminal(70), record)).toBe(
      lines(
        'FIELD                               VALUE',
        'id                                  cll42l54f20i1la0lfooe3z12',
        'name                                A long name that goes on past the',
        '                                    end of a narrow line',
        'draftEmailMessageContentRevisionId  crev42l54f20i1la0lfooe3z12',
        'group                               -',
      ),
    );
  });

  it('put values under the field names on a narrow terminal, ids whole', () => {
    expect(renderRecord(terminal(40), record)).toBe(
      lines(
        'id',
        '  cll42l54f20i1la0lfooe3z12',
        'name',
        '  A long name that goes on past the end',
        '  of a narrow line',
        'draftEmailMessageContentRevisionId',
        '  crev42l54f20i1la0lfooe3z12',
        'group',
        '  -',
      ),
    );
  });

  it('put a URL too wide to fit beside the field names under its own, whole, and keep the others beside', () => {
    const withUrl = {
      id: record.id,
      url: `https://app.loops.so/transactional/${record.id}`,
      draftEmailMessageContentRevisionId: record.draftEmailMessageContentRevisionId,
    };
    expect(renderRecord(terminal(70), withUrl)).toBe(
      lines(
        'FIELD                               VALUE',
        'id                                  cll42l54f20i1la0lfooe3z12',
        'url',
        '  https://app.loops.so/transactional/cll42l54f20i1la0lfooe3z12',
        'draftEmailMessageContentRevisionId  crev42l54f20i1la0lfooe3z12',
      ),
    );
    expect(renderFields(terminal(80), Object.entries(withUrl))).toBe(
      lines(
        'id                        cll42l54f20i1la0lfooe3z12',
        'url',
        '  https://app.loops.so/transactional/cll42l54f20i1la0lfooe3z12',
        'draftEmailMessageContentRevisionId',
        '                          crev42l54f20i1la0lfooe3z12',
      ),
    );
  });

  it('stay field / value rows off a terminal', () => {
    expect(renderRecord(output({ tty: false, columns: 20 }).out, record)).toBe(
      lines(
        'FIELD\tVALUE',
        `id\t${record.id}`,
        `name\t${record.name}`,
        `draftEmailMessageContentRevisionId\t${record.draftEmailMessageContentRevisionId}`,
        'group\tnull',
      ),
    );
  });
});

describe('Output width', () => {
  it('comes from the option, else the stream, else $COLUMNS, else 80', () => {
    const stream = (columns?: number) => Object.assign(sink(), { isTTY: true, columns });
    expect(new Output({ json: false, color: false, stdout: stream(100), env: { COLUMNS: '120' }, columns: 90 }).columns).toBe(90);
    expect(new Output({ json: false, color: false, stdout: stream(100), env: { COLUMNS: '120' } }).columns).toBe(100);
    expect(new Output({ json: false, color: false, stdout: stream(0), env: { COLUMNS: '120' } }).columns).toBe(120);
    expect(new Output({ json: false, color: false, stdout: stream(), env: { COLUMNS: 'wide' } }).columns).toBe(80);
  });
});

interface Item {
  id: string;
  name: string;
  note: string;
}

const itemView: ListView<Item> = {
  noun: 'items',
  columns: [{ header: 'ID' }, { header: 'NAME', truncate: true }, { header: 'NOTE', truncate: true }],
  row: (item) => [item.id, item.name, item.note],
};

function page(items: Item[], last: boolean): Page<Item> {
  return {
    pagination: { totalResults: 0, returnedResults: items.length, perPage: items.length, totalPages: 1, nextCursor: last ? null : 'next', nextPage: null },
    data: items,
  };
}

describe('listings on a terminal', () => {
  it('show each page as it arrives, laying the table out again when a later page needs more room', async () => {
    const { out, writes } = output({ tty: true, columns: 40 });
    async function* pages() {
      yield page([{ id: 'a1', name: 'Short', note: 'x' }], false);
      // The first page is on the screen before the second is asked for.
      expect(writes).toEqual(['ID  NAME   NOTE\na1  Short  x\n']);
      yield page([{ id: 'a2', name: 'A much longer name', note: 'y' }], false);
      // Fits the new widths: no new header.
      yield page([{ id: 'a3', name: 'Also long enough', note: 'the last column runs to the edge of the terminal' }], true);
    }
    await writeList(out, pages(), itemView);
    expect(writes).toEqual([
      'ID  NAME   NOTE\na1  Short  x\n',
      '\nID  NAME                NOTE\na2  A much longer name  y\n',
      'a3  Also long enough    the last column…\n',
    ]);
  });

  it('never cut a later page to the first page’s widths while the terminal has room', async () => {
    const { out, text } = output({ tty: true, columns: 160 });
    const named = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, index) => ({ id: `c${from + index}`, name: `Transactional email ${from + index}`, note: 'ok' }));
    async function* pages() {
      yield page(named(1, 9), false);
      yield page(named(10, 99), true);
    }
    await writeList(out, pages(), itemView);
    const shown = text();
    expect(shown).not.toContain('…');
    expect(shown).toContain('c95  Transactional email 95  ok\n');
    // Two headers: the first page's, and the wider table's.
    expect(shown.match(/^ID +NAME +NOTE$/gm)).toHaveLength(2);
  });

  it('follow the terminal when it is resized between pages', async () => {
    const stream = Object.assign(sink(), { isTTY: true, columns: 30 });
    const writes: string[] = [];
    stream._write = (chunk, _encoding, done) => {
      writes.push(String(chunk));
      done();
    };
    const out = new Output({ json: false, color: false, stdout: stream, stderr: sink(), env: {} });
    const long = 'a note longer than thirty columns';
    async function* pages() {
      yield page([{ id: 'a1', name: 'First', note: long }], false);
      stream.columns = 80;
      yield page([{ id: 'a2', name: 'Second', note: long }], true);
    }
    await writeList(out, pages(), itemView);
    expect(writes[0]).toContain('…');
    expect(writes[1]).toBe(`\nID  NAME    NOTE\na2  Second  ${long}\n`);
  });

  it('render a page of 130,000 items as a table, as rows and as JSON without exhausting the stack', async () => {
    const items = Array.from({ length: 130_000 }, (_, index) => ({ id: `i${index}`, name: `name ${index}`, note: index % 2 === 0 ? 'even' : '注文' }));
    for (const options of [{ tty: true }, { tty: false }, { tty: true, json: true }]) {
      const { out, text } = output({ ...options, columns: 80 });
      await writeList(
        out,
        (async function* () {
          yield page(items, true);
        })(),
        itemView,
      );
      const shown = text();
      if (options.json) expect(JSON.parse(shown)).toHaveLength(130_000);
      else {
        expect(shown.split('\n')).toHaveLength(130_002);
        expect(shown).toContain('\ni129999');
      }
    }
  });
});
