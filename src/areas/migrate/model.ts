/** What `migrate report` finds: the shapes its --json prints, and its renderer reads. */
import type { ProviderSend } from './sends.js';
import type { TemplateReport } from './templates.js';

/** The Loops call a send becomes, written as the official SDK takes it. */
export interface LoopsCall {
  call: 'sendTransactionalEmail' | 'sendEvent';
  code: string;
}

export interface ReportedSend extends ProviderSend {
  /** The template file of the repository it sends, when one is found. */
  templateFile?: string;
  loops: LoopsCall;
}

export interface MigrationReport {
  repository: string;
  templates: TemplateReport[];
  sends: ReportedSend[];
  /** What the API cannot do, and the person does in the app or by hand. */
  leftForTheApp: string[];
  /** Files left unread, and why: told, never silently. */
  skipped: { path: string; reason: string }[];
  /** With --out: the directory the records were written into, and each record's directory under it. */
  written?: { directory: string; records: string[] };
}
