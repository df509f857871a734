/**
 * `content convert --preview-props`: a React Email template whose words live in its own
 * `PreviewProps` (a `.map` over a prop of steps, one of links) converts with them; a single value
 * (the recipient's name) stays a variable; without the option the loop is listed as before.
 */
import { describe, expect, it } from 'vitest';
import { Findings, textContent } from '../../../../src/convert/model.js';
import { readReact } from '../../../../src/convert/sources/react-source.js';

/** A welcome email written as React Email's demo templates are: its steps and links are props, given in PreviewProps. */
const WELCOME = `import { Body, Container, Heading, Html, Link, Section, Text } from '@react-email/components';

interface WelcomeProps {
  name: string;
  steps: { title: string; detail: string }[];
  links: { label: string; href: string }[];
}

export default function WelcomeEmail({ name, steps, links }: WelcomeProps) {
  return (
    <Html>
      <Body>
        <Container>
          <Heading>Welcome aboard, {name}</Heading>
          {steps.map((step) => (
            <Text key={step.title}>
              <strong>{step.title}</strong> {step.detail}
            </Text>
          ))}
          <Section>
            {links.map(({ label, href }) => (
              <Link key={href} href={href}>
                {label}
              </Link>
            ))}
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

WelcomeEmail.PreviewProps = {
  name: 'Ada',
  steps: [
    { title: 'Connect a domain.', detail: 'Point your DNS at us in two minutes.' },
    { title: 'Invite the team.', detail: 'Everyone gets their own seat.' },
  ],
  links: [
    { label: 'Read the guide', href: 'https://example.com/guide' },
    { label: 'Ask the forum', href: 'https://example.com/forum' },
  ],
} satisfies WelcomeProps;
`;

function read(source: string, previewProps: boolean) {
  const findings = new Findings();
  const document = readReact(source, 'welcome.tsx', findings, undefined, previewProps);
  const entries = findings.remediation.map((item) => `${item.line}:${item.column} ${item.construct}: ${item.done} (${item.outcome})`);
  return { text: textContent(document.body), entries };
}

describe('a React Email template read with its preview props', () => {
  it('writes each step and link of its PreviewProps, and keeps the name a variable', () => {
    const { text, entries } = read(WELCOME, true);
    expect(text).toContain('Connect a domain. Point your DNS at us in two minutes.');
    expect(text).toContain('Invite the team. Everyone gets their own seat.');
    expect(text).toContain('Read the guide');
    expect(text).toContain('Ask the forum');
    expect(text).toContain('Welcome aboard, {name}');
    expect(text).not.toContain('Ada');
    expect(entries).toEqual([
      "15:12 the prop steps (a list): written out from the template's PreviewProps (--preview-props): 2 items (approximated)",
      "21:14 the prop links (a list): written out from the template's PreviewProps (--preview-props): 2 items (approximated)",
    ]);
  });

  it('reads the lists through a props object, a prop the preview does not give staying unknown', () => {
    const source = WELCOME.replace('{ name, steps, links }: WelcomeProps', 'props: WelcomeProps')
      .replace('{name}', '{props.name}')
      .replace('{steps.map', '{props.steps.map')
      .replace('{links.map', '{props.links.map')
      .replace('<Section>', '<Section>{props.footer && <Text>Extra</Text>}');
    const { text, entries } = read(source, true);
    expect(text).toContain('Invite the team. Everyone gets their own seat.');
    expect(text).toContain('Ask the forum');
    // `props.footer` is no list of the preview's: the condition is not decided by it, and listed.
    expect(entries.some((entry) => entry.includes('a condition in JSX'))).toBe(true);
  });

  it('lists the loop and keeps its body once without the option', () => {
    const { text, entries } = read(WELCOME, false);
    expect(text).not.toContain('Connect a domain.');
    expect(entries.filter((entry) => entry.includes('a loop in JSX (.map)'))).toHaveLength(2);
  });

  it('names the option in the loop’s to-do where the preview props give its list, and only there', () => {
    const todos = (source: string) => {
      const findings = new Findings();
      readReact(source, 'welcome.tsx', findings, undefined, false);
      return findings.remediation.filter((item) => item.construct === 'a loop in JSX (.map)').map((item) => item.todo);
    };
    expect(todos(WELCOME)).toEqual([
      "send the repeated part as one data variable the app builds, or convert again with --preview-props to write out the 2 items the template's PreviewProps give steps",
      "send the repeated part as one data variable the app builds, or convert again with --preview-props to write out the 2 items the template's PreviewProps give links",
    ]);
    expect(todos(WELCOME.replace('WelcomeEmail.PreviewProps', 'OtherEmail.PreviewProps'))).toEqual([
      'send the repeated part as one data variable the app builds, or make it a component',
      'send the repeated part as one data variable the app builds, or make it a component',
    ]);
  });

  it('takes only the preview props set on the email’s own component', () => {
    const { entries } = read(WELCOME.replace('WelcomeEmail.PreviewProps', 'OtherEmail.PreviewProps'), true);
    expect(entries.filter((entry) => entry.includes('a loop in JSX (.map)'))).toHaveLength(2);
  });
});

/** As React Email's Netlify welcome demo writes its steps: each one's words JSX in the preview props, shown through `steps?.map`. */
const STEPS = `import { Body, Html, Link, Section, Text } from '@react-email/components';

interface StepsProps {
  steps?: { id: number; Description: React.ReactNode }[];
  links?: { title: string; href: string }[];
}

export const StepsEmail = ({ steps, links }: StepsProps) => (
  <Html>
    <Body>
      <ul>{steps?.map(({ Description }) => Description)}</ul>
      <Section>
        {links?.map((link) => (
          <Link key={link.href} href={link.href}>{link.title}</Link>
        ))}
      </Section>
      <Text>{process.env.FOOTER}</Text>
    </Body>
  </Html>
);

StepsEmail.PreviewProps = {
  steps: [
    { id: 1, Description: <li key={1}><strong>Publish your site.</strong> Pick a template and go live.</li> },
    { id: 2, Description: <li key={2}>Add a <Link href="https://example.com/domains">custom domain</Link>.</li> },
  ],
  links: [{ title: 'Read the docs', href: 'https://example.com/docs' }],
  footer: process.env.FOOTER,
} as StepsProps;

export default StepsEmail;
`;

describe('preview props holding JSX, shown through an optional .map', () => {
  it('writes each step’s JSX and each link, a prop the text cannot know leaving the others', () => {
    const { text, entries } = read(STEPS, true);
    expect(text).toContain('Publish your site. Pick a template and go live.');
    expect(text).toContain('Add a custom domain.');
    expect(text).toContain('Read the docs');
    expect(entries.filter((entry) => entry.includes('a loop in JSX (.map)'))).toEqual([]);
    expect(entries.filter((entry) => entry.includes('(a list)'))).toHaveLength(2);
  });

  it('lists both loops without the option, their bodies kept once', () => {
    const { text, entries } = read(STEPS, false);
    expect(text).not.toContain('Publish your site.');
    expect(entries.filter((entry) => entry.includes('a loop in JSX (.map)'))).toHaveLength(2);
  });

  it('lists the list a loop reads at that loop, not one a condition before it read', () => {
    const source = WELCOME.replace('{links.map(', '{steps.length > 1 && <Text>Two steps</Text>}\n            {links.map(').replace(
      /\{steps\.map\(\(step\) => \([\s\S]*?\)\)\}/,
      '',
    );
    const { entries } = read(source, true);
    expect(entries.filter((entry) => entry.includes('(a list)')).map((entry) => entry.replace(/ \(--preview.*$/, ''))).toEqual([
      "18:14 the prop links (a list): written out from the template's PreviewProps",
    ]);
  });
});
