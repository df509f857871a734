/**
 * Guardian, the platform's check before an email is published or sent, as one rule set: links and
 * buttons that go nowhere, variables the email's kind cannot fill, and variables without a
 * fallback. The emulator answers its Guardian endpoint with every finding; `content check` runs
 * the same rules inside checkLmx, reporting those the specification's own rules do not already
 * cover (a button without a link) under the check's rule name.
 */
import type { GuardianReport, GuardianRule } from '../platform/email-messages/schemas.js';
import { type LmxDocument, type LmxElement, parseLmx } from './parse.js';
import type { LmxPosition, LmxProblem, LmxRule } from './problems.js';
import { LINK_SCHEMES, type LmxKind, type LmxNamespace, NAMESPACES_OF_KIND, schemeOf } from './tags.js';
import { elementsOf, textOf, variablesOf } from './tree.js';

export type GuardianRuleName =
  | 'missingButtonHrefs'
  | 'invalidButtonHrefs'
  | 'missingLinkHrefs'
  | 'invalidLinkHrefs'
  | 'unsupportedContactProperties'
  | 'unsupportedEventProperties'
  | 'unsupportedDataVariables'
  | 'missingFallbackContactProperties'
  | 'missingFallbackEventProperties';

interface GuardianRuleSpec {
  severity: 'error' | 'warning';
  title: string;
  description: string;
  /**
   * The rule `content check` reports it under, when the specification's rules do not already
   * (an invalid link is attribute-value's, a missing text link required-attribute's, a variable
   * of the wrong kind variable-namespace's); with the fix it suggests.
   */
  check?: { rule: LmxRule; severity: 'error' | 'warning'; message: string; fix: string };
}

/** `http, https, mailto, tel or sms`: the schemes Guardian's link rules name. */
const LINK_SCHEME_LIST = [...LINK_SCHEMES].join(', ').replace(/, (?=[^,]*$)/, ' or ');

export const GUARDIAN_RULES: Readonly<Record<GuardianRuleName, GuardianRuleSpec>> = {
  missingButtonHrefs: {
    severity: 'error',
    title: 'Missing button link',
    description: "Buttons won't work without an href value",
    check: {
      rule: 'button-href',
      // The specification does not require it, but the platform refuses to publish such a button.
      severity: 'warning',
      message: "<Button> has no href: it goes nowhere, and the platform's check refuses to publish it",
      fix: 'add href="https://..."',
    },
  },
  invalidButtonHrefs: { severity: 'error', title: 'Invalid button link', description: `Button links must be ${LINK_SCHEME_LIST} URLs` },
  missingLinkHrefs: { severity: 'error', title: 'Missing text link', description: "Links won't work without an href value" },
  invalidLinkHrefs: { severity: 'error', title: 'Invalid text link', description: `Text links must be ${LINK_SCHEME_LIST} URLs` },
  unsupportedContactProperties: {
    severity: 'error',
    title: 'Contact property not available',
    description: 'Only campaign and workflow emails can show contact properties',
  },
  unsupportedEventProperties: {
    severity: 'error',
    title: 'Event property not available',
    description: 'Only workflow emails triggered by an event can show event properties',
  },
  unsupportedDataVariables: { severity: 'error', title: 'Data variable not available', description: 'Only transactional emails can show data variables' },
  missingFallbackContactProperties: {
    severity: 'warning',
    title: 'Contact property without fallback',
    description: 'Contacts without this property will see an empty space',
  },
  missingFallbackEventProperties: {
    severity: 'warning',
    title: 'Event property without fallback',
    description: 'Events without this property will leave an empty space',
  },
};

const UNSUPPORTED: Record<LmxNamespace, GuardianRuleName> = {
  contact: 'unsupportedContactProperties',
  event: 'unsupportedEventProperties',
  data: 'unsupportedDataVariables',
};
const MISSING_FALLBACK: Partial<Record<LmxNamespace, GuardianRuleName>> = {
  contact: 'missingFallbackContactProperties',
  event: 'missingFallbackEventProperties',
};

/** One thing Guardian found: what (`label`, a variable's `codeName`) and where. */
export interface GuardianFinding {
  rule: GuardianRuleName;
  label: string;
  codeName?: string;
  position: LmxPosition;
  /** The element or attribute found has an href attribute (empty, or of another scheme). */
  hasHref: boolean;
}

export interface GuardianOptions {
  /** The kind of email: decides which namespaces' variables it can fill. Unchecked when absent. */
  kind?: LmxKind;
  /** The email message's fallbacks by namespace; without them, the missing-fallback rules do not run. */
  fallbacks?: Partial<Record<LmxNamespace, Readonly<Record<string, string>>>>;
}

/** Guardian's findings on a document, rule by rule, in the order of GUARDIAN_RULES. */
export function guardianFindings(document: LmxDocument, options: GuardianOptions = {}): GuardianFinding[] {
  const findings: GuardianFinding[] = [];
  const elements = [...elementsOf(document)];
  const hrefOf = (element: LmxElement) => element.attributes.find((attribute) => attribute.name === 'href');
  const label = (element: LmxElement) => textOf(element) || `<${element.name}> at line ${element.position.line}`;
  // A value that starts with a variable is filled at send time.
  const valid = (value: string) => value.startsWith('{') || LINK_SCHEMES.has(schemeOf(value) ?? '');
  const links = (tag: string, missing: GuardianRuleName, invalid: GuardianRuleName) => {
    const tagged = elements.filter((element) => element.name === tag);
    const found = (rule: GuardianRuleName, element: LmxElement) =>
      findings.push({ rule, label: label(element), position: element.position, hasHref: hrefOf(element) !== undefined });
    for (const element of tagged) if ((hrefOf(element)?.value ?? '') === '') found(missing, element);
    for (const element of tagged) {
      const href = hrefOf(element)?.value ?? '';
      if (href !== '' && !valid(href)) found(invalid, element);
    }
  };
  links('Button', 'missingButtonHrefs', 'invalidButtonHrefs');
  links('Link', 'missingLinkHrefs', 'invalidLinkHrefs');
  const { kind } = options;
  if (kind === undefined || kind === 'component') return findings;
  const variables = variablesOf(document);
  for (const namespace of ['contact', 'event', 'data'] as const) {
    const used = variables.filter((variable) => variable.namespace === namespace);
    const found = (rule: GuardianRuleName) => (variable: (typeof used)[number]) =>
      findings.push({ rule, label: variable.name, codeName: variable.name, position: variable.position, hasHref: false });
    if (!NAMESPACES_OF_KIND[kind].includes(namespace)) used.forEach(found(UNSUPPORTED[namespace]));
    else {
      const missing = MISSING_FALLBACK[namespace];
      if (missing !== undefined && options.fallbacks !== undefined)
        used.filter(({ name }) => options.fallbacks![namespace]?.[name] === undefined).forEach(found(missing));
    }
  }
  return findings;
}

/**
 * Guardian's findings grouped by rule, as the API answers its check of an email message: what the
 * emulator answers with, and what a plan says Guardian would find in an email it changes.
 */
export function guardianReportOf(lmx: string, kind: LmxKind, fallbacks: GuardianOptions['fallbacks']): GuardianReport {
  const report: GuardianReport = { errors: [], warnings: [] };
  const byRule = new Map<string, GuardianRule>();
  for (const finding of guardianFindings(parseLmx(lmx).document, { kind, fallbacks })) {
    let rule = byRule.get(finding.rule);
    if (rule === undefined) {
      const { severity, title, description } = GUARDIAN_RULES[finding.rule];
      rule = { rule: finding.rule, title, description, items: [] };
      byRule.set(finding.rule, rule);
      (severity === 'error' ? report.errors : report.warnings).push(rule);
    }
    rule.items.push(finding.codeName === undefined ? { label: finding.label } : { label: finding.label, codeName: finding.codeName });
  }
  return report;
}

/** The names of the data variables a body uses, each once. */
export function dataVariablesIn(lmx: string): string[] {
  return variablesOf(parseLmx(lmx).document)
    .filter((variable) => variable.namespace === 'data')
    .map((variable) => variable.name);
}

/**
 * Guardian's findings as `content check` reports them: those of rules the specification's own do
 * not cover, once each. A button with an empty href is the specification's (an empty URL).
 */
export function guardianProblems(document: LmxDocument): LmxProblem[] {
  return guardianFindings(document).flatMap((finding) => {
    const check = GUARDIAN_RULES[finding.rule].check;
    if (check === undefined || finding.hasHref) return [];
    const { line, column, offset } = finding.position;
    return [{ severity: check.severity, rule: check.rule, message: check.message, fix: check.fix, line, column, offset }];
  });
}
