import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { joinProseLines, wrapLines, wrapText } from '../../../src/render/wrap.js';

describe('wrapText', () => {
  it('breaks at spaces so no line is wider than asked', () => {
    expect(wrapText('Lists transactional emails, most recently created first', 20)).toBe('Lists transactional\nemails, most\nrecently created\nfirst');
  });

  it('keeps each line break and indents continuation lines like their first line', () => {
    const text = 'Examples:\n  loopsctl themes list --json --limit 100 | jq -r .name\n\n    - a nested item that is long';
    expect(wrapLines(text, 24)).toEqual([
      'Examples:',
      '  loopsctl themes list',
      '  --json --limit 100 |',
      '  jq -r .name',
      '',
      '    - a nested item that',
      '    is long',
    ]);
  });

  it('keeps a word longer than the line whole, on a line of its own', () => {
    expect(wrapLines('see https://loops.so/docs/api-reference/transactional for more', 20)).toEqual([
      'see',
      'https://loops.so/docs/api-reference/transactional',
      'for more',
    ]);
  });

  it('keeps spacing inside a line, drops it at a break, and measures wide characters as two columns', () => {
    expect(wrapText('--json   raw data  as returned', 16)).toBe('--json   raw\ndata  as\nreturned');
    expect(wrapLines('注文 確認 メール', 9)).toEqual(['注文 確認', 'メール']);
  });

  it('wraps commander help to the terminal when used as its boxWrap', () => {
    const program = new Command('loopsctl')
      .description('Administer a Loops email account from the command line: transactional emails, groups and workflows')
      .option('--per-page <n>', 'page size, 10 to 50; every list command follows the cursor through all the pages')
      .configureHelp({ helpWidth: 60, boxWrap: wrapText });
    const help = program.helpInformation();
    for (const line of help.trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(60);
    // Continuation lines of an option's description sit under its first line.
    expect(help).toMatch(/\n {2}--per-page <n> {2}page size, 10 to 50; every list command\n {18}follows the cursor/);
  });
});

describe('joinProseLines', () => {
  it('joins prose broken where the source broke it, so it wraps at the terminal’s width alone', () => {
    const help = 'CSV columns: email, userId, and any custom\nproperty of the account.\n\nEnds with a summary;\nexits 0 when all went well.';
    expect(joinProseLines(help)).toBe(
      'CSV columns: email, userId, and any custom property of the account.\n\nEnds with a summary; exits 0 when all went well.',
    );
    expect(wrapText(joinProseLines(help), 40).split('\n')).toEqual([
      'CSV columns: email, userId, and any',
      'custom property of the account.',
      '',
      'Ends with a summary; exits 0 when all',
      'went well.',
    ]);
  });

  it('keeps the lines of lists, examples and tables: indented lines, and what follows a colon or an indented line', () => {
    const help =
      'The round trip:\n  loopsctl get <id> > email.lmx\n  loopsctl update <id> \\\n    --force\nKeys:\n  a   first\n      more\nAny other key gets 401.';
    expect(joinProseLines(help)).toBe(help);
  });
});
