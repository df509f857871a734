/** `loopsctl ips`: the platform's dedicated sending IP addresses, for allow-lists. */
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { formatHostCidr, parseAddress } from '../allowlist/address.js';
import { AllowListSyntaxError, compareAllowList, parseAllowList, type AllowListEntry } from '../allowlist/check.js';
import { InvalidResponseError, MismatchError, UsageError } from '../api/errors.js';
import { clientFor, outputFor } from './context.js';
import { examples } from './options.js';

/** The API's address strings as numbers; one that is not an address is an invalid answer. */
function apiAddresses(ips: string[]): bigint[] {
  return ips.map((ip) => {
    const address = parseAddress(ip);
    if (typeof address === 'string') throw new InvalidResponseError(`the API listed "${ip}" as a sending IP: ${address}`, { status: 200 });
    return address;
  });
}

async function readAllowList(file: string): Promise<AllowListEntry[]> {
  let content: string;
  try {
    content = await readFile(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new UsageError(`cannot read the allow-list file "${file}": ${reason}`);
  }
  try {
    return parseAllowList(content);
  } catch (error) {
    if (!(error instanceof AllowListSyntaxError)) throw error;
    throw new UsageError(`${file}:${error.line}: "${error.text}" is not an IP address or CIDR range: ${error.reason}`, {
      hint: 'one address or CIDR range per line; # starts a comment',
    });
  }
}

export function register(group: Command): void {
  examples(
    group
      .command('list')
      .description('List the dedicated sending IP addresses (the list changes over time and excludes shared IPs)')
      .option('--plain', 'one address per line, nothing else')
      .option('--cidr', 'print each address as a single-host range (/32 or /128); --json stays as the API sent it'),
    ['loopsctl ips list', 'loopsctl ips list --plain > allowlist.txt', 'loopsctl ips list --plain --cidr', 'loopsctl ips list --json'],
  ).action(async (options: { plain?: boolean; cidr?: boolean }, self: Command) => {
    const ips = await (await clientFor(self)).dedicatedSendingIps();
    const out = outputFor(self);
    if (out.json) return out.writeJson(ips);
    // Loaded only for text: tables and colour are what make up most of this command's start-up.
    const { renderIps, renderPlainIps } = await import('../render/resources.js');
    const shown = options.cidr ? apiAddresses(ips).map(formatHostCidr) : ips;
    return out.write(options.plain ? renderPlainIps(shown) : renderIps(out, shown));
  });

  examples(
    group
      .command('check')
      .description('Compare the dedicated sending IPs with an allow-list file; exit 1 when they differ')
      .argument('<file>', 'one address or CIDR range per line; # comments and blank lines are ignored')
      .addHelpText(
        'after',
        `
An API address inside a listed range counts as covered. "+" lines are API addresses the file does
not cover (add them); "-" lines are entries of the file that cover no API address (remove them).
With --json, {inSync, added, removed} is printed on stdout whatever the outcome.
`,
      ),
    ['loopsctl ips check allowlist.txt', 'loopsctl ips check allowlist.txt --json'],
  ).action(async (file: string, _options: unknown, self: Command) => {
    const entries = await readAllowList(file);
    const ips = await (await clientFor(self)).dedicatedSendingIps();
    const report = compareAllowList(apiAddresses(ips), entries);
    const out = outputFor(self);
    await out.present(report, (await import('../render/resources.js')).renderDrift);
    if (!report.inSync) {
      throw new MismatchError(`${file} is out of step with the API: ${report.added.length} to add, ${report.removed.length} to remove`, {
        hint: 'update the file with `loopsctl ips list --plain`',
      });
    }
  });
}
