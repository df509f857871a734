/** Guardian's rules, one set: the emulator's answer, a plan's impact and content check's problems come from the same findings. */
import { describe, expect, it } from 'vitest';
import { checkLmx, guardianReportOf as guardian, guardianFindings, parseLmx } from '../../../src/lmx/index.js';

const findings = (lmx: string, kind?: 'campaign' | 'transactional', fallbacks?: Record<string, Record<string, string>>) =>
  guardianFindings(parseLmx(lmx).document, { kind, fallbacks }).map((finding) => `${finding.rule} ${finding.label}`);

describe('Guardian', () => {
  it('finds a button without a link, and both sides report it from that one rule', () => {
    const lmx = '<Paragraph>Hi</Paragraph>\n<Button>Go</Button>';
    expect(findings(lmx)).toEqual(['missingButtonHrefs Go']);
    expect(checkLmx(lmx).problems.map((problem) => `${problem.severity} ${problem.rule} ${problem.line}`)).toEqual(['warning button-href 2']);
    expect(guardian(lmx, 'campaign', {}).errors).toEqual([
      { rule: 'missingButtonHrefs', title: 'Missing button link', description: "Buttons won't work without an href value", items: [{ label: 'Go' }] },
    ]);
  });

  it('leaves an empty href to the specification: content check reports it once, as an empty URL', () => {
    const lmx = '<Button href="">Go</Button>';
    expect(findings(lmx)).toEqual(['missingButtonHrefs Go']);
    expect(checkLmx(lmx).problems.map((problem) => problem.rule)).toEqual(['attribute-value']);
  });

  it('finds links of other schemes, variables the kind cannot fill, and variables without fallbacks', () => {
    const lmx = '<Paragraph><Link href="ftp://x">f</Link> {data.code} {contact.firstName} {contact.plan}</Paragraph>';
    expect(findings(lmx, 'campaign', { contact: { plan: 'free' } })).toEqual([
      'invalidLinkHrefs f',
      'missingFallbackContactProperties firstName',
      'unsupportedDataVariables code',
    ]);
    const report = guardian(lmx, 'campaign', { contact: { plan: 'free' } });
    expect(report.errors.map((rule) => rule.rule)).toEqual(['invalidLinkHrefs', 'unsupportedDataVariables']);
    expect(report.warnings.map((rule) => rule.rule)).toEqual(['missingFallbackContactProperties']);
  });
});
