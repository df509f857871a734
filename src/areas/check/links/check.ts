/**
 * The network half of the qa family: the static links and images of each email fetched (probe.ts)
 * and judged, each finding at the line and column of its address in the LMX. An address a variable
 * builds is counted, not fetched; one to a loopback, private or reserved address (by its name or by
 * what the name resolves to) is reported and fetched only with --allow-private-links.
 */

import { settleLimit } from '../../../api/concurrency.js';
import { elementsOf, type LmxAttribute, type LmxElement, textOf } from '../../../lmx/index.js';
import { embedComponents } from '../../../lmx/qa/index.js';
import { safeNumber } from '../../../lmx/theme.js';
import { countOf } from '../../../render/numbers.js';
import { type RenderedEmail, whichEmail } from '../emails.js';
import type { CheckedMessage } from '../gather.js';
import { type Problem, problem } from '../records.js';
import { IN_ALL, Prober, type ProbeSettings, type Verdict } from './probe.js';
import { LINK_RULES, type LinkRule } from './rules.js';

export const MAX_IMAGE_BYTES = 1024 * 1024;
export const MAX_EMAIL_IMAGE_BYTES = 5 * 1024 * 1024;

export interface LinkCheckOptions extends ProbeSettings {
  /** Told as each address is judged, for a progress line. */
  onProgress?: (done: number, total: number) => void;
}

interface Target {
  checked: CheckedMessage;
  element: LmxElement;
  attribute: LmxAttribute;
  address: string;
  as: 'link' | 'image';
  /** The component whose content holds it, when it is not the email's own LMX. */
  component?: string;
}

/** The static http(s) addresses of an email, its components' included, and how many a variable builds. */
function targetsOf({ checked, document, components }: RenderedEmail): { targets: Target[]; built: number } {
  const targets: Target[] = [];
  let built = 0;
  const embedded = embedComponents(document, components);
  for (const element of elementsOf(embedded.document)) {
    for (const attribute of element.attributes) {
      const as =
        attribute.name === 'href' ? 'link' : element.name === 'Image' && (attribute.name === 'src' || attribute.name === 'dynamicSrc') ? 'image' : undefined;
      if (as === undefined) continue;
      if (attribute.parts.some((part) => part.kind === 'variable')) {
        built += 1;
        continue;
      }
      const address = attribute.value.trim();
      if (!/^https?:\/\//i.test(address) || !URL.canParse(address)) continue;
      const component = embedded.embeddedIn.get(attribute.position);
      targets.push({ checked, element, attribute, address, as, ...(component === undefined ? {} : { component }) });
    }
  }
  return { targets, built };
}

/** The domain a link's text shows (`acme.example` in "Sign in at acme.example"), if it shows one. */
function shownDomain(element: LmxElement): string | undefined {
  const text = textOf(element);
  const domain = /(?:https?:\/\/)?((?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,})(?![\w.-]*@)/i.exec(text)?.[1];
  return domain?.toLowerCase().replace(/^www\./, '');
}

const sameSite = (host: string, shown: string) => {
  const bare = host.toLowerCase().replace(/^www\./, '');
  return bare === shown || bare.endsWith(`.${shown}`) || shown.endsWith(`.${bare}`);
};

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

class Judge {
  readonly problems: Problem[] = [];

  report(target: Target, rule: LinkRule, message: string, fix: string): void {
    const { checked, attribute, address, component } = target;
    const inComponent = component === undefined ? '' : ` (in the component ${component})`;
    const where = `${whichEmail(checked)}, line ${attribute.position.line}, column ${attribute.position.column}${inComponent}`;
    this.problems.push(problem(checked.record, rule, LINK_RULES[rule].severity, `${where}: ${message}`, fix, { link: address }));
  }

  link(target: Target, verdict: Verdict): void {
    const { address } = target;
    switch (verdict.kind) {
      case 'failed':
        return this.failed(target, verdict);
      case 'loop':
        return this.report(
          target,
          'link-redirect-loop',
          `${address} redirects in a loop (back to ${verdict.url})`,
          'link to the page the redirects should end at',
        );
      case 'too-many-redirects':
        return this.report(target, 'link-too-many-redirects', `${address} is redirected more than 5 times`, 'link to the final page');
      case 'unsafe-redirect':
        return this.report(
          target,
          'link-unsafe-redirect',
          `${address} redirects to ${verdict.to}: ${verdict.reason}; not followed`,
          'link to a public https page',
        );
      case 'answered':
        if (verdict.status >= 400) {
          this.report(
            target,
            'link-broken',
            `${address} answers HTTP ${verdict.status}${verdict.url === address ? '' : ` (at ${verdict.url})`}`,
            'fix the link, or the page it leads to',
          );
          return;
        }
        if (verdict.downgraded)
          this.report(target, 'link-downgrade', `${address} lands on ${verdict.url}, over plain http`, 'link to an address that stays on https');
        this.hostShown(target, verdict.url);
    }
  }

  private failed(target: Target, verdict: Extract<Verdict, { kind: 'failed' }>): void {
    const { address } = target;
    const at = verdict.url === address ? '' : ` (at ${verdict.url})`;
    if (verdict.failure === 'timeout')
      this.report(target, 'link-timeout', `${address} gave no answer in time${at}`, 'check the host is up; raise the limit with --timeout if it is only slow');
    else if (verdict.failure === 'tls')
      this.report(
        target,
        'link-tls',
        `${address}: its TLS certificate is not trusted${at} (${verdict.reason})`,
        "renew the host's certificate, or link to a host with a valid one",
      );
    else this.report(target, 'link-unreachable', `${address} cannot be reached${at} (${verdict.reason})`, 'fix the host name, or link to a host that is up');
  }

  private hostShown(target: Target, landed: string): void {
    if (target.element.name !== 'Link' && target.element.name !== 'Button') return;
    const shown = shownDomain(target.element);
    const host = new URL(landed).hostname;
    if (shown === undefined || sameSite(host, shown)) return;
    this.report(
      target,
      'link-host-mismatch',
      `the text shows ${shown} and ${target.address} lands on ${host}: filters score this as phishing`,
      'make the text and the address name the same domain',
    );
  }

  /** An image's verdict; its size, for the email's total. */
  image(target: Target, verdict: Verdict): number {
    const { address } = target;
    if (verdict.kind === 'unsafe-redirect') {
      this.report(
        target,
        'link-unsafe-redirect',
        `the image ${address} redirects to ${verdict.to}: ${verdict.reason}; not followed`,
        'serve the image from a public https address',
      );
      return 0;
    }
    if (verdict.kind !== 'answered' || verdict.status >= 400) {
      const why =
        verdict.kind === 'answered'
          ? `answers HTTP ${verdict.status}`
          : verdict.kind === 'failed'
            ? `does not load (${verdict.failure}: ${verdict.reason})`
            : 'redirects without end';
      this.report(target, 'image-broken', `the image ${address} ${why}`, 'fix the address, or upload the image again');
      return 0;
    }
    const declared = verdict.contentType.split(';')[0]!.trim().toLowerCase().replace('image/jpg', 'image/jpeg');
    const { sniffed } = verdict;
    if (!declared.startsWith('image/'))
      this.report(
        target,
        'image-not-image',
        `the image ${address} answers ${declared === '' ? 'no content-type' : declared}, not an image`,
        'point src at the image itself',
      );
    else if (sniffed === undefined || sniffed.type !== declared)
      this.report(
        target,
        'image-not-image',
        `the image ${address} says ${declared} and its bytes are ${sniffed === undefined ? 'no image' : sniffed.type}`,
        'serve it with the content-type of what it is, or convert it',
      );
    const bytes = verdict.length ?? 0;
    if (bytes > MAX_IMAGE_BYTES)
      this.report(
        target,
        'image-too-large',
        `the image ${address} is ${megabytes(bytes)}, over 1 MB`,
        'resize and compress it (most email images are under 200 KB)',
      );
    const drawn = safeNumber(target.element.attributes.find((attribute) => attribute.name === 'width')?.value, 1, 2000);
    if (drawn !== undefined && sniffed?.width !== undefined && sniffed.width < drawn)
      this.report(
        target,
        'image-width',
        `the image ${address} is ${sniffed.width} px wide and drawn at ${drawn} px: it shows blurred`,
        `use an image at least ${drawn} px wide (${drawn * 2} px for sharp screens)`,
      );
    return bytes;
  }
}

const keyOf = (target: Target) => `${target.as} ${target.address}`;

/**
 * Each address to ask, once, taken host by host in turn (a first of each host, then a second…): the
 * addresses asked at a time then span hosts, rather than wait in a row on one host's 2.
 */
function inTurnByHost(targets: Iterable<Target>): Target[] {
  const byHost = new Map<string, Target[]>();
  const seen = new Set<string>();
  for (const target of targets) {
    if (seen.has(keyOf(target))) continue;
    seen.add(keyOf(target));
    const host = new URL(target.address).host;
    const queue = byHost.get(host);
    if (queue === undefined) byHost.set(host, [target]);
    else queue.push(target);
  }
  const order: Target[] = [];
  let queues = [...byHost.values()];
  for (let round = 0; queues.length > 0; round += 1) {
    for (const queue of queues) order.push(queue[round]!);
    queues = queues.filter((queue) => queue.length > round + 1);
  }
  return order;
}

/**
 * The qa family's network findings for the emails. Bounded however many links they hold: IN_ALL
 * addresses are judged at a time (the fetcher keeps to 2 requests a host and IN_ALL in all), the
 * next started as one ends, and what is kept of each is its verdict.
 */
export async function checkLinks(emails: readonly RenderedEmail[], options: LinkCheckOptions): Promise<Problem[]> {
  const prober = new Prober(options);
  const judge = new Judge();
  try {
    const perEmail = emails.map((email) => ({ email, ...targetsOf(email) }));
    const order = inTurnByHost(perEmail.flatMap(({ targets }) => targets));
    const judged = new Map<string, Verdict>();
    const verdictOf = async (target: Target): Promise<void> => {
      judged.set(keyOf(target), await prober.verdict(target.address, target.as));
      options.onProgress?.(judged.size, order.length);
    };
    // A run stopped (Ctrl-C) stops at once: no address is asked after it.
    await settleLimit(order, IN_ALL, verdictOf, { dooms: () => true });
    for (const { email, targets, built } of perEmail) {
      let imageBytes = 0;
      for (const target of targets) {
        const verdict = judged.get(keyOf(target))!;
        if (verdict.kind === 'private')
          judge.report(
            target,
            'link-private',
            `${target.address} is ${verdict.reason}, which recipients cannot reach; not fetched`,
            'link to a public address (or check with --allow-private-links)',
          );
        else if (target.as === 'link') judge.link(target, verdict);
        else imageBytes += judge.image(target, verdict);
      }
      const { checked } = email;
      if (imageBytes > MAX_EMAIL_IMAGE_BYTES)
        judge.problems.push(
          problem(
            checked.record,
            'email-images-too-large',
            LINK_RULES['email-images-too-large'].severity,
            `${whichEmail(checked)}: its images are ${megabytes(imageBytes)} together, over 5 MB`,
            'use fewer or smaller images: a phone on a slow network loads them all',
          ),
        );
      if (built > 0)
        judge.problems.push(
          problem(
            checked.record,
            'links-skipped',
            LINK_RULES['links-skipped'].severity,
            `${whichEmail(checked)}: ${countOf(built, 'link')} or image address${built === 1 ? '' : 'es'} built from variables, not fetched`,
            'nothing: each send fills them in',
          ),
        );
    }
    return judge.problems;
  } finally {
    await prober.close();
  }
}
