import { parse } from '@babel/parser';
import { describe, expect, it } from 'vitest';
import { javascriptUses } from '../../../src/app-code/javascript.js';
import { tokenUses } from '../../../src/app-code/tokens.js';

const brief = ({ uses }: ReturnType<typeof tokenUses>) =>
  uses.map(({ kind, value, line, column, dataVariables }) => ({ kind, value, line, column, dataVariables }));

describe('the tokenizer of Python, Ruby, Go and PHP', () => {
  it('finds Ruby sends with symbol keys and hash rockets', () => {
    const source = [
      '# transactional_id: "in_a_comment"',
      'Loops.send_transactional_email(transactional_id: "abc", email: e, data_variables: { first_name: n, "resetUrl" => u })',
      'client.send_event(:event_name => "signed_up", mailing_lists: { "list1" => true })',
    ].join('\n');
    expect(brief(tokenUses('app.rb', source))).toEqual([
      { kind: 'transactional', value: 'abc', line: 2, column: 50, dataVariables: ['first_name', 'resetUrl'] },
      { kind: 'event', value: 'signed_up', line: 3, column: 34, dataVariables: undefined },
      { kind: 'list', value: 'list1', line: 3, column: 64, dataVariables: undefined },
    ]);
  });

  it('finds Go struct fields and maps, and PHP arrays, with data variables given before the id', () => {
    const go = [
      '/* TransactionalID: "commented" */',
      'client.SendTransactional(ctx, loops.Transactional{',
      '\tDataVariables: map[string]any{"firstName": name, `loginUrl`: url},',
      '\tTransactionalID: "welcome1",',
      '})',
    ].join('\n');
    expect(brief(tokenUses('send.go', go))).toEqual([
      { kind: 'transactional', value: 'welcome1', line: 4, column: 19, dataVariables: ['firstName', 'loginUrl'] },
    ]);
    const php = "<?php\n$loops->transactional->send(['transactionalId' => 'r1', 'dataVariables' => ['name' => $n]]); // 'eventName' => 'no'\n";
    expect(brief(tokenUses('mail.php', php))).toEqual([{ kind: 'transactional', value: 'r1', line: 2, column: 51, dataVariables: ['name'] }]);
  });

  it('reads Python triple-quoted and prefixed strings without taking their text for code', () => {
    const source = ['doc = """transactional_id="inside_a_string" """', 'loops.send_event(email=e, event_name=f"plan_changed")'].join('\n');
    expect(brief(tokenUses('worker.py', source))).toEqual([{ kind: 'event', value: 'plan_changed', line: 2, column: 38, dataVariables: undefined }]);
  });
});

describe('JavaScript and TypeScript, parsed', () => {
  it('reads TypeScript syntax and leaves data variables it cannot know (a spread) unjudged', () => {
    const source = [
      'const ids = { reset: "r1" } as const;',
      'export async function send<T extends object>(extra: T): Promise<void> {',
      '  await loops.sendTransactionalEmail({ transactionalId: `w1`, dataVariables: { ...extra, a: 1 } });',
      '  await loops.sendTransactionalEmail({ transactionalId: ids.reset });',
      '  await loops.updateContact("ada@example.com", { plan: "pro" });',
      '}',
    ].join('\n');
    expect(brief(javascriptUses(parse as never, 'app.ts', source))).toEqual([
      { kind: 'transactional', value: 'w1', line: 3, column: 57, dataVariables: undefined },
      { kind: 'property', value: 'plan', line: 5, column: 50, dataVariables: undefined },
    ]);
  });

  it('gives nothing, rather than failing, for a file it cannot parse', () => {
    expect(javascriptUses(parse as never, 'broken.js', 'loops.sendEvent({ eventName: "x" ')).toEqual({
      uses: [],
      unread: 'the whole file: not JavaScript or TypeScript that Babel can read',
    });
  });
});
