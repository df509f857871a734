/**
 * A JSX condition keeps one branch, never both glued together: the one the text decides, else the
 * one the props' defaults choose, else the one React draws when the condition holds; the branch left
 * out is listed at its place, its words counted as not kept.
 */
import { describe, expect, it } from 'vitest';
import { measureFidelity } from '../../../../src/convert/fidelity.js';
import { Findings, textContent } from '../../../../src/convert/model.js';
import { readReact } from '../../../../src/convert/sources/react-source.js';

/** A template whose component takes `props` and returns `jsx` in its body, after `before` at the module's top. */
const template = (props: string, jsx: string, before = '') => `import { Body, Html, Text } from '@react-email/components';
${before}
export default function Email(${props}) {
  return (
    <Html>
      <Body>
${jsx}
      </Body>
    </Html>
  );
}
`;

function read(source: string) {
  const findings = new Findings();
  const document = readReact(source, 'email.tsx', findings);
  const entries = findings.remediation.map((item) => `${item.line}:${item.column} ${item.construct}: ${item.done} (${item.outcome})`);
  return { document, findings, text: textContent(document.body), entries };
}

describe('a JSX condition in a React Email template', () => {
  it('keeps the first branch of a condition on a prop, and lists the second at its place', () => {
    const { document, findings, text, entries } = read(
      template(
        '{ type }',
        `        <Text>
          {type === 'verification'
            ? 'Verify Your Email'
            : 'Reset Your Password'}
        </Text>`,
      ),
    );
    expect(text).toBe('Verify Your Email');
    expect(entries).toEqual([
      '8:12 a condition in JSX: the condition dropped: its first branch kept, as React draws it when the condition holds (flattened)',
      '10:15 the branch "Reset Your Password": left out: LMX has no conditions, and the other branch is the one kept (dropped)',
    ]);
    // The branch left out counts as words not kept, named by its entry: nothing is listed again as not carried.
    const fidelity = measureFidelity(document, '<Paragraph>Verify Your Email</Paragraph>\n', findings);
    expect(fidelity.words).toEqual({ source: 6, kept: 3 });
    expect(findings.remediation.filter((item) => item.outcome === 'not carried')).toEqual([]);
  });

  it('keeps the branch a prop’s default chooses, and lists the other', () => {
    const { text, entries } = read(
      template(
        "{ type = 'password-reset', showFooter = false }",
        `        <Text>{type === 'verification' ? <b>Verify</b> : <b>Reset</b>} now</Text>\n        {showFooter && <Text>Sent by Acme</Text>}`,
      ),
    );
    expect(text).toBe('Reset now');
    expect(entries).toEqual([
      '7:16 a condition in JSX: the condition dropped: its second branch kept, as its props’ defaults choose (flattened)',
      '7:42 the branch "Verify": left out: LMX has no conditions, and the other branch is the one kept (dropped)',
      '8:10 a condition in JSX: the condition dropped: what it shows (nothing) kept, as its props’ defaults choose (flattened)',
      '8:24 the branch "Sent by Acme": left out: LMX has no conditions, and the other branch is the one kept (dropped)',
    ]);
  });

  it('shows the one branch a literal decides, and lists nothing', () => {
    const { text, entries } = read(template('', "        <Text>{mode === 'dark' ? 'Dark' : 'Light'}{0 ?? 'none'}</Text>", "const mode = 'light';"));
    expect(text).toBe('Light0');
    expect(entries).toEqual([]);
  });

  it('keeps what `&&` shows on a prop, lists nothing left out where a branch shows nothing', () => {
    const { text, entries } = read(template('{ title, note }', '        {title ? <Text>{title}</Text> : null}\n        {note && <Text>Note: {note}</Text>}'));
    expect(text).toBe('{title}Note: {note}');
    expect(entries).toEqual([
      '7:10 a condition in JSX: the condition dropped: its first branch kept, as React draws it when the condition holds (flattened)',
      '8:10 a condition in JSX: the condition dropped: what it shows kept, as React draws it when the condition holds (flattened)',
    ]);
  });

  it('makes a literal after `||` or `??` on a prop the variable’s fallback; lists the right of any other', () => {
    const { findings, text, entries } = read(template('{ name, city }', "        <Text>Hi {name || 'there'}, {city ?? fallbackCity()}</Text>"));
    expect(text).toBe('Hi {name}, {city}');
    expect(findings.defaults.get('name')?.value).toBe('there');
    expect(entries).toEqual([
      '7:38 a condition in JSX: the condition dropped: its left kept, as React draws it when that is set (flattened)',
      '7:46 the branch fallbackCity(…): left out: LMX has no conditions, and the other branch is the one kept (dropped)',
    ]);
  });

  it('lists a branch of an attribute’s condition left out, its class names counted as no words', () => {
    const { findings, document } = read(template('{ wide }', "        <Text title={wide ? 'w-full' : 'w-half'}>Hello</Text>"));
    expect(document.body.children).toMatchObject([{ attrs: { title: 'w-full' } }]);
    expect(findings.remediation.map((item) => `${item.line}:${item.column} ${item.construct} (${item.outcome})`)).toEqual([
      '7:22 a condition in JSX (flattened)',
      '7:40 the branch "w-half" (dropped)',
    ]);
    expect(findings.leftOut).toEqual([]);
  });

  it('counts no words of a branch left out of the preview text, which the body does not show', () => {
    const source = template('{ type }', '        <Text>Hello</Text>')
      .replace('import { Body, Html, Text }', 'import { Body, Html, Preview, Text }')
      .replace('      <Body>', "      <Preview>{type === 'a' ? 'Your code' : 'Your link'}</Preview>\n      <Body>");
    const { document, findings, entries } = read(source);
    expect(document.previewText).toBe('Your code');
    expect(entries).toHaveLength(2);
    expect(findings.leftOut).toEqual([]);
  });
});
