/**
 * `check`'s report on a terminal or in a log (src/areas/check/render.ts): a fix shared by several
 * findings is said once, after the last of them under a record, and pointed back to from a later
 * record with the same fix, rather than repeated under each finding.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../../../src/areas/check/records.js';
import { renderReport } from '../../../../src/areas/check/render.js';
import { Output } from '../../../../src/render/output.js';

const sink = () => new Writable({ write: (_chunk, _encoding, done) => done() });
const out = new Output({ json: false, color: false, stdout: sink(), stderr: sink(), env: {}, columns: 80 });

const TIMEOUT_FIX = 'check the host is up; raise the limit with --timeout if it is only slow';

const timeout = (name: string, path: string): Problem => ({
  rule: 'link-timeout',
  severity: 'warning',
  message: `the campaign email, line 3, column 10: https://slow.example/${path} gave no answer in time`,
  fix: TIMEOUT_FIX,
  kind: 'campaign',
  name,
  id: `id-${name}`,
  link: `https://slow.example/${path}`,
});

describe("check's report", () => {
  it('says a fix once for the findings that share it, in a record and across records', () => {
    const problems: Problem[] = [
      ...Array.from({ length: 8 }, (_, index) => timeout('November newsletter', `page/${index}`)),
      {
        ...timeout('November newsletter', 'gone'),
        rule: 'link-broken',
        severity: 'error',
        message: 'the campaign email, line 3, column 10: https://slow.example/gone answers HTTP 404',
        fix: 'fix the link, or the page it leads to',
      },
      ...Array.from({ length: 3 }, (_, index) => timeout('December newsletter', `page/${index}`)),
    ];
    const text = renderReport(out, { problems, emailsChecked: 2, recordsRead: 2, incomplete: false });
    const lines = text.split('\n');
    // The fix's words, wrapped as they are, appear once.
    expect(text.split('check the host is up').length - 1).toBe(1);
    expect(lines.filter((line) => /gave no answer in time/.test(line))).toHaveLength(11);
    const november = lines.indexOf('campaign "November newsletter" (id-November newsletter)');
    const december = lines.indexOf('campaign "December newsletter" (id-December newsletter)');
    expect([november, december].every((at) => at >= 0)).toBe(true);
    // Under November: the 8 timeouts, then their fix once; the broken link and its own.
    const ofNovember = lines.slice(november + 1, december).map((line) => line.trim());
    expect(ofNovember.filter((line) => line.startsWith('warning'))).toHaveLength(8);
    const fixOf8 = ofNovember.indexOf('fix, for the 8 above: check the host is up; raise the limit with');
    expect(fixOf8).toBeGreaterThan(ofNovember.findLastIndex((line) => line.startsWith('warning')));
    expect(ofNovember[fixOf8 + 1]).toBe('--timeout if it is only slow');
    expect(ofNovember[fixOf8 + 2]).toMatch(/^error {4}the campaign email, line 3, column 10: https:\/\/slow\.example\/gone/);
    expect(ofNovember).toContain('fix: fix the link, or the page it leads to');
    // Under December: its 3, and a line back to the fix said above.
    const ofDecember = lines.slice(december + 1).map((line) => line.trim());
    expect(ofDecember.filter((line) => line.startsWith('warning'))).toHaveLength(3);
    expect(ofDecember).toContain('fix, for the 3 above: as said above for link-timeout');
    expect(lines.at(-2)).toBe('1 error, 11 warnings, 0 notes; 2 records read, 2 emails checked.');
  });

  it('keeps a fix under the one finding that has it', () => {
    const text = renderReport(out, { problems: [timeout('November newsletter', 'page')], emailsChecked: 1, recordsRead: 1, incomplete: false });
    expect(text).toContain(`fix: ${TIMEOUT_FIX.slice(0, 40)}`);
  });
});
