import { describe, expect, it } from 'vitest';
import { fillFiles, fillJson, fillLmx, placeholdersIn, strayOpeningsIn, unfillFiles } from '../../../../../src/areas/content/shared/env-values.js';
import { elementsOf, parseLmx } from '../../../../../src/lmx/index.js';

const HOSTILE = `"/><Image src="https://evil.example/x.png" /><Link href='x' onclick="y">&amp;</Link> & <b>`;

describe('{env.NAME} placeholders', () => {
  it('finds each as written, and each {env. that opens none', () => {
    const text = 'Go to {env.appUrl}/reset or {env.app url} or {env.support';
    expect(placeholdersIn(text)).toEqual([{ name: 'appUrl', offset: 6, written: '{env.appUrl}' }]);
    expect(strayOpeningsIn(text)).toEqual([text.indexOf('{env.app url}'), text.lastIndexOf('{env.')]);
  });

  it('fills LMX text and attribute values with the value as text: it can add no element and no attribute', () => {
    const source = '<Paragraph>Hello {env.name}</Paragraph>\n<Button href="{env.name}">Go</Button>\n<Image src=\'{env.name}\' alt="x" />\n';
    const filled = fillLmx(source, { name: HOSTILE });
    const { document, problems } = parseLmx(filled);
    expect(problems).toEqual([]);
    const elements = [...elementsOf(document)];
    expect(elements.map((element) => element.name)).toEqual(['Paragraph', 'Button', 'Image']);
    expect(elements[1]!.attributes.map(({ name, value }) => [name, value])).toEqual([['href', HOSTILE]]);
    expect(elements[2]!.attributes.map(({ name, value }) => [name, value])).toEqual([
      ['src', HOSTILE],
      ['alt', 'x'],
    ]);
  });

  it('fills JSON strings escaped as JSON, keeping the file its layout', () => {
    const text = '{\n  "subject": "Reset at {env.appUrl}",\n  "fromName": "{env.from}"\n}\n';
    const filled = fillJson(text, { appUrl: 'https://app.example.com', from: 'Acme "Support"\n\\' });
    expect(filled).toBe('{\n  "subject": "Reset at https://app.example.com",\n  "fromName": "Acme \\"Support\\"\\n\\\\"\n}\n');
    expect(JSON.parse(filled)).toEqual({ subject: 'Reset at https://app.example.com', fromName: 'Acme "Support"\n\\' });
  });

  it('leaves a name without a value as written, and a record without placeholders as the same map', () => {
    expect(fillLmx('<Paragraph>{env.missing}</Paragraph>', { other: 'x' })).toBe('<Paragraph>{env.missing}</Paragraph>');
    expect(fillLmx('{env.toString}', {})).toBe('{env.toString}');
    const files = new Map([['draft.lmx', '<Paragraph>Hi</Paragraph>']]);
    expect(fillFiles(files, { a: 'b' })).toBe(files);
    expect([
      ...fillFiles(
        new Map([
          ['draft.lmx', '{env.a}'],
          ['draft.json', '{"subject": "{env.a}"}'],
          ['notes.txt', '{env.a}'],
        ]),
        { a: '<&>' },
      ),
    ]).toEqual([
      ['draft.lmx', '&lt;&amp;&gt;'],
      ['draft.json', '{"subject": "<&>"}'],
      ['notes.txt', '{env.a}'],
    ]);
  });

  it('maps whole values back to their placeholders, longest first, as each file escapes them; a shared value is listed, not guessed', () => {
    const values = {
      appUrl: 'https://app.example.com',
      docs: 'https://app.example.com/docs',
      brand: 'Acme & "Co"',
      id: 'abc1',
      a: 'x',
      home: 'https://home.example.com',
      site: 'https://home.example.com',
    };
    const files = new Map([
      [
        'draft.lmx',
        '<Link href="https://app.example.com/docs">Acme &amp; &quot;Co&quot;</Link> https://app.example.com/reset xabc1 abc1 https://home.example.com',
      ],
      ['draft.json', '{"subject": "Acme & \\"Co\\"", "fromName": "x"}'],
      ['notes.txt', 'https://app.example.com'],
    ]);
    const { files: back, shared } = unfillFiles(files, values);
    expect([...back]).toEqual([
      ['draft.lmx', '<Link href="{env.docs}">{env.brand}</Link> {env.appUrl}/reset xabc1 {env.id} https://home.example.com'],
      ['draft.json', '{"subject": "{env.brand}", "fromName": "x"}'],
      ['notes.txt', 'https://app.example.com'],
    ]);
    expect(shared).toEqual([{ value: 'https://home.example.com', names: ['home', 'site'] }]);
    // Filled again, the files are the account's.
    expect(fillLmx(back.get('draft.lmx')!, values)).toBe(files.get('draft.lmx'));
  });
});
