import { describe, expect, it } from 'vitest';
import { checkSource } from '../../../../../src/areas/content/shared/check.js';
import { checkEnvFiles, envProblemsOf } from '../../../../../src/areas/content/shared/env-check.js';
import { fillLmxTracked } from '../../../../../src/areas/content/shared/env-values.js';
import { type Environments, environmentsOf } from '../../../../../src/areas/content/shared/environments.js';

const ENVIRONMENTS = environmentsOf(
  'environments.json',
  JSON.stringify({
    environments: {
      staging: {
        profile: 'staging',
        values: { appUrl: 'https://staging.example.com', support: 'help+staging@example.com', templateId: 'cm1stagingtemplate', flag: 'on' },
        hosts: ['*.staging-cdn.example.net'],
      },
      production: {
        profile: 'production',
        values: {
          appUrl: 'https://app.example.com',
          support: 'help@example.com',
          templateId: 'cm1productiontpl',
          flag: 'on',
          docs: 'https://app.example.com/docs',
        },
      },
    },
  }),
).environments as Environments;
const production = ENVIRONMENTS.get('production')!;
const staging = ENVIRONMENTS.get('staging')!;

const rules = (text: string, target?: typeof production) =>
  envProblemsOf(text, ENVIRONMENTS, target).map(({ rule, line, column, message }) => `${line}:${column} ${rule} ${message}`);

describe("the environments' check of a file", () => {
  it('names a placeholder no environment defines, and one an environment lacks, at its line and column', () => {
    const text = '<Paragraph>\n  {env.appUrl} {env.nope} {env.docs}\n</Paragraph>';
    expect(rules(text)).toEqual([
      '2:16 env-unknown {env.nope}: no environment defines nope (staging, production)',
      '2:27 env-missing {env.docs} has no value in staging',
    ]);
    // For production alone, docs has its value.
    expect(rules(text, production)).toEqual(['2:16 env-unknown {env.nope}: no environment defines nope (staging, production)']);
  });

  it('names each {env. that opens no placeholder: it would be sent as written', () => {
    expect(rules('Hi {env.app url} and {env.support', production)).toEqual([
      '1:4 env-syntax {env. opens no placeholder: it would be sent as written',
      '1:22 env-syntax {env. opens no placeholder: it would be sent as written',
    ]);
  });

  it("finds another environment's value, address, id or host written out, and none of the target's own", () => {
    const text = [
      '<Paragraph>Write to help+staging@example.com or help@example.com.</Paragraph>',
      '<Button href="https://staging.example.com/reset">Reset</Button>',
      '<Image src="https://img.staging-cdn.example.net/logo.png" alt="" />',
      '<Paragraph>Template cm1stagingtemplate; xcm1stagingtemplatex is another id; flag on.</Paragraph>',
      '<Paragraph>https://app.example.com/docs and {env.appUrl}</Paragraph>',
    ].join('\n');
    expect(rules(text, production)).toEqual([
      "1:21 env-leak staging's value of {env.support} written out in an email for production",
      "2:15 env-leak staging's value of {env.appUrl} written out in an email for production",
      "3:21 env-leak img.staging-cdn.example.net is staging's host, written out in an email for production",
      "4:21 env-leak staging's value of {env.templateId} written out in an email for production",
    ]);
    // Production's own values in a staging email are the same leak the other way; a value both share is none.
    expect(rules(text, staging)).toEqual([
      "1:49 env-leak production's value of {env.support} written out in an email for staging",
      "5:12 env-leak production's value of {env.docs} written out in an email for staging",
    ]);
  });

  it('refuses any {env. in a file sent as written, and finds leaks there too', () => {
    const text = 'name: Welcome\nnodes:\n  hook: { url: "{env.appUrl}/hook", other: "https://staging.example.com/x" }\n';
    const checks = checkEnvFiles([{ file: 'workflow.yaml', text, filled: false }], ENVIRONMENTS, production);
    expect(checks.flatMap((check) => check.errors.map(({ rule, line, column }) => `${line}:${column} ${rule}`))).toEqual([
      '3:17 env-unfilled',
      '3:45 env-leak',
    ]);
    expect(checkEnvFiles([{ file: 'workflow.yaml', text: 'name: Welcome\n', filled: false }], ENVIRONMENTS)).toEqual([]);
  });

  it('finds no leak without a target: every environment is checked for its names alone', () => {
    expect(rules('help+staging@example.com https://app.example.com')).toEqual([]);
  });
});

describe('the LMX check of a file with placeholders', () => {
  it('reads it filled, as it is sent, and says each problem where it is written', () => {
    const source = '<Paragraph>{env.support}</Paragraph>\n<Button href="{env.appUrl}/reset" size="big">Go</Button>\n<Link href="{env.unknown}">x</Link>';
    const check = checkSource('draft.lmx', source, 'transactional', undefined, [production]);
    expect([...check.errors, ...check.warnings].map(({ rule, line, column }) => `${line}:${column} ${rule}`)).toEqual([
      '3:1 placement',
      '2:35 unknown-attribute',
    ]);
    // Without values, the placeholders read as variables LMX does not know.
    expect(checkSource('draft.lmx', source, 'transactional').errors.map((problem) => problem.rule)).toContain('variable-syntax');
  });

  it("checks it filled with each environment's values, naming those a problem is in when not every one", () => {
    const source = '<Paragraph><Link href="{env.appUrl}/x">Go</Link></Paragraph>\n<Button href="{env.appUrl}" size="big">Go</Button>';
    const environments = [
      { name: 'staging', values: { appUrl: 'ftp://staging.example.com' } },
      { name: 'production', values: { appUrl: 'https://app.example.com' } },
    ];
    const check = checkSource('draft.lmx', source, 'transactional', undefined, environments);
    // Staging's scheme breaks both links there; the unknown attribute is in every environment's email.
    const where = ({ rule, line, column, message }: { rule: string; line: number; column: number; message: string }) =>
      `${line}:${column} ${rule} ${message.includes('(in ') ? message.slice(message.indexOf('(in ')) : 'everywhere'}`;
    expect([...check.errors, ...check.warnings].map(where)).toEqual([
      '1:18 attribute-value (in staging)',
      '2:9 attribute-value (in staging)',
      '2:29 unknown-attribute everywhere',
    ]);
  });

  it('maps an offset inside a value to its placeholder, and one after it back by the difference', () => {
    const source = 'a {env.x} b {env.y} c';
    const { text, written } = fillLmxTracked(source, { x: '<long value>', y: '' });
    expect(text).toBe('a &lt;long value&gt; b  c');
    expect(written(0)).toBe(0);
    expect(written(text.indexOf('long'))).toBe(2);
    expect(written(text.indexOf('b'))).toBe(source.indexOf('b'));
    expect(written(text.indexOf('c'))).toBe(source.indexOf('c'));
  });
});
