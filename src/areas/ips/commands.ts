/** What the `ips` commands do. */
import { InvalidResponseError, LocalFileError, MismatchError } from '../../base/errors.js';
import { type Handler, handler, type Uses } from '../../core/capabilities.js';
import { readInput } from '../../core/input.js';
import { formatHostCidr, parseAddress } from './address.js';
import { type AllowListEntry, AllowListSyntaxError, compareAllowList, parseAllowList } from './allowlist.js';
import { dedicatedSendingIps } from './client.js';

/** The API's address strings as numbers; one that is not an address is an invalid answer. */
function apiAddresses(ips: string[]): bigint[] {
  return ips.map((ip) => {
    const address = parseAddress(ip);
    if (typeof address === 'string') throw new InvalidResponseError(`the API listed "${ip}" as a sending IP: ${address}`, { status: 200 });
    return address;
  });
}

async function readAllowList(context: Uses<'files'>, file: string): Promise<AllowListEntry[]> {
  const { text } = await readInput(context.runtime, file, 'allow-list');
  try {
    return parseAllowList(text);
  } catch (error) {
    if (!(error instanceof AllowListSyntaxError)) throw error;
    throw new LocalFileError(`${file}:${error.line}: "${error.text}" is not an IP address or CIDR range: ${error.reason}`, {
      hint: 'one address or CIDR range per line; # starts a comment',
    });
  }
}

export const list: Handler<[], { plain?: boolean; cidr?: boolean }> = handler(['out', 'client'], async (context, _args, options) => {
  const ips = await dedicatedSendingIps(await context.client());
  const { out } = context;
  if (out.json) return out.writeJson(ips);
  if (ips.length === 0) {
    // Said on stderr, so that `--plain > allowlist.txt` still writes the (empty) list.
    out.note('No dedicated sending IPs for this team (shared IP addresses are never listed).');
    return;
  }
  // Loaded only for text: tables and colour are what make up most of this command's start-up.
  const { renderIps, renderPlainIps } = await import('./render.js');
  const shown = options.cidr ? apiAddresses(ips).map(formatHostCidr) : ips;
  return out.write(options.plain ? renderPlainIps(shown) : renderIps(out, shown));
});

export const check: Handler<[string]> = handler(['out', 'client', 'files'], async (context, [file]) => {
  const entries = await readAllowList(context, file);
  const ips = await dedicatedSendingIps(await context.client());
  const report = compareAllowList(apiAddresses(ips), entries);
  await context.out.present(report, (await import('./render.js')).renderDrift);
  if (!report.inSync) {
    const { shellWord } = await import('../../render/shell-word.js');
    throw new MismatchError(`${file} is out of step with the API: ${report.added.length} to add, ${report.removed.length} to remove`, {
      // Rewriting the file from the list would drop its comments and ranges: the lines above are the edit.
      hint: `add the addresses marked + and remove the entries marked -; or, for a file without comments or ranges, write it anew with \`loopsctl ips list --plain > ${file === '-' ? '<file>' : shellWord(file)}\``,
    });
  }
});
