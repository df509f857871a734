/** `loopsctl ips`: the platform's dedicated sending IP addresses, for allow-lists. */
import type { Command } from 'commander';
import { clientFor, outputFor } from './context.js';
import { examples } from './options.js';

export function register(group: Command): void {
  examples(
    group
      .command('list')
      .description('List the dedicated sending IP addresses (the list changes over time and excludes shared IPs)')
      .option('--plain', 'one address per line, nothing else'),
    ['loopsctl ips list', 'loopsctl ips list --plain > allowlist.txt', 'loopsctl ips list --json'],
  ).action(async (options: { plain?: boolean }, self: Command) => {
    const ips = await (await clientFor(self)).dedicatedSendingIps();
    const out = outputFor(self);
    if (out.json) return out.writeJson(ips);
    // Loaded only for text: tables and colour are what make up most of this command's start-up.
    const { renderIps, renderPlainIps } = await import('../render/resources.js');
    return out.write(options.plain ? renderPlainIps(ips) : renderIps(out, ips));
  });
}
