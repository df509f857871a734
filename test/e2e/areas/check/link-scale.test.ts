/**
 * `check --only qa` on 2,000 links: every address asked once, never more than 2 requests at a
 * time to a host nor IN_ALL (32) in all (counted at the hosts, on loopback), and a progress line on a
 * terminal that a pipe never gets. The hosts answer at once: the run's cost is loopsctl's own.
 * 2,000 links are some sixty times the bound in all: a run that started every request at once,
 * or kept every answer, is caught as surely as on more.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { IN_ALL } from '../../../../src/api/fetcher.js';
import { LINK_RULES } from '../../../../src/areas/check/links/rules.js';
import { InFlight, type PlainHost, spreadOverEmails, startPlainHost } from '../../../support/link-hosts.js';
import { sandboxEachTest } from '../../../support/recording.js';

const HOSTS = 10;
/** Two hosts hold most links (800 each), as a team's own site does; eight others 50 each. */
const linksOf = (host: number) => (host < 2 ? 800 : 50);
const LINKS = 2_000;
const linksTo = (addresses: readonly string[]) => addresses.map((address, at) => `<Link href="${address}">the release notes of part ${at + 1}</Link>`);

describe('check --only qa: 2,000 links', () => {
  const openSandbox = sandboxEachTest();
  const hosts: PlainHost[] = [];
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((host) => host.close()));
  });

  it('asks each once, at most 2 at a time to a host and IN_ALL in all, with a progress line on a terminal', async () => {
    const sandbox = await openSandbox();
    const inFlight = new InFlight();
    for (let index = 0; index < HOSTS; index += 1) hosts.push(await startPlainHost(inFlight));
    // Host by host in a row, as an email lists one site's pages together: the bound holds all the same.
    const addresses = hosts.flatMap((host, index) => Array.from({ length: linksOf(index) }, (_, path) => `${host.origin}/notes/${path}`));
    expect(addresses).toHaveLength(LINKS);
    expect(spreadOverEmails(sandbox, linksTo(addresses))).toBeGreaterThan(1);
    const result = await sandbox.loopsctl(['check', '--only', 'qa', '--drafts', '--allow-private-links', '--no-pager', '--json'], { tty: { columns: 100 } });
    expect(result.code).toBe(0);
    expect(result.json<{ rule: string }[]>().filter((found) => Object.hasOwn(LINK_RULES, found.rule))).toEqual([]);
    const asked = hosts.flatMap((host) => host.requests.map((request) => request.replace(' ', ` ${host.origin}`)));
    expect(asked).toHaveLength(LINKS);
    expect(new Set(asked)).toEqual(new Set(addresses.map((address) => `HEAD ${address}`)));
    for (const host of hosts) expect(host.most).toBeLessThanOrEqual(2);
    // Once the small hosts are done, the two large ones are asked at their bound, and no further.
    expect(hosts.slice(0, 2).map((host) => host.most)).toEqual([2, 2]);
    expect(inFlight.most).toBeLessThanOrEqual(IN_ALL);
    // Side by side across the hosts, not one host at a time.
    expect(inFlight.most).toBeGreaterThan(2);
    // The line counts up to every address, and is cleared before the report.
    expect(result.stderr).toContain('\r\x1b[2Kchecking links and images: 1 of 2,000');
    expect(result.stderr).toContain('\r\x1b[2Kchecking links and images: 2,000 of 2,000');
    expect(result.stderr.endsWith('\r\x1b[2K')).toBe(true);
  });

  it('draws no progress line when stderr is a pipe', async () => {
    const sandbox = await openSandbox();
    const host = await startPlainHost(new InFlight());
    hosts.push(host);
    spreadOverEmails(sandbox, linksTo([`${host.origin}/notes`]));
    const result = await sandbox.loopsctl(['check', '--only', 'qa', '--drafts', '--allow-private-links', '--json']);
    expect([result.code, result.stderr]).toEqual([0, '']);
    expect(host.requests).toEqual(['HEAD /notes']);
  });
});
