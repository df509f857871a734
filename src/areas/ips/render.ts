/** Text views of the dedicated sending IPs and of an allow-list's drift from them. */
import { isIP } from 'node:net';
import { sanitize } from '../../base/sanitize.js';
import type { Output } from '../../render/output.js';
import { styleFor } from '../../render/style.js';
import { renderTable } from '../../render/table.js';
import type { DriftReport } from './allowlist.js';

export function renderIps(out: Output, ips: string[]): string {
  return renderTable(
    out,
    [{ header: 'ADDRESS' }, { header: 'VERSION' }],
    ips.map((ip) => [ip, ipVersion(ip)]),
  );
}

function ipVersion(ip: string): string {
  const address = ip.replace(/\/\d+$/, '');
  return isIP(address) === 6 ? 'IPv6' : isIP(address) === 4 ? 'IPv4' : 'unknown';
}

/** One address per line, for files and pipes. */
export function renderPlainIps(ips: string[]): string {
  return ips.map((ip) => `${sanitize(ip)}\n`).join('');
}

/** The drift of an allow-list: `+` for addresses to add, `-` for entries to remove. */
export function renderDrift(out: Output, report: DriftReport): string {
  if (report.inSync) return 'in sync: the file lists exactly the dedicated sending IPs\n';
  const style = styleFor(out);
  const lines = [...report.added.map((ip) => style.green(`+ ${ip}`)), ...report.removed.map((ip) => style.red(`- ${ip}`))];
  return `${lines.join('\n')}\n`;
}
