/**
 * A write command that can plan (`--plan --out <file>`): the command runs as it always does, reads
 * what it reads and checks what it checks, and the write it would send is held at the transport
 * (as --dry-run holds it) and written to a plan file instead, with the revision it was planned
 * against. `loopsctl apply` sends that very request later: the command and the apply share the
 * command's own code, which built it.
 */

import { UsageError } from '../../base/errors.js';
import { ExitCode } from '../../base/exit-codes.js';
import { type Capability, type Handler, handler, type Uses } from '../../core/capabilities.js';
import { countOf } from '../../render/numbers.js';
import { whereOf, witnessOf } from './account.js';
import { impactOf } from './impact/impact.js';
import { impactText } from './impact/render.js';
import type { PlanKinds } from './kinds.js';
import { makePlan, writePlan } from './plan-file.js';
import { requestUnit } from './request-calls.js';

export interface PlanOptions {
  plan?: boolean;
  out?: string;
  expires?: number;
  /** The app's source, for the sends a publish would break (a command that declares --code). */
  code?: string[];
}

const NEEDS = ['out', 'client', 'key', 'files', 'clock', 'globals'] as const;

/** The command, able to write its change to a plan file rather than send it. */
export function plannable<A extends unknown[], O extends object>(name: string, inner: Handler<A, O>, kinds: PlanKinds): Handler<A, O & PlanOptions> {
  const uses = [...new Set<Capability>([...inner.uses, ...NEEDS])];
  return handler(uses, async (context, args: A, options: O & PlanOptions) => {
    if (options.plan !== true) {
      if (options.out !== undefined || options.expires !== undefined)
        throw new UsageError('--out and --expires are those of a plan file: give --plan with them', { hint: `loopsctl ${name} … --plan --out change.json` });
      if (options.code !== undefined)
        throw new UsageError("--code shows the plan's impact on the app: give --plan with it", {
          hint: `loopsctl ${name} … --plan --out change.json --code src`,
        });
      return inner(context, args, options);
    }
    if (options.out === undefined && options.expires !== undefined)
      throw new UsageError('--expires is the expiry of a plan file: give --out <file> with it', { hint: `loopsctl ${name} … --plan --out change.json` });
    if ((options as { queuedContacts?: string }).queuedContacts === 'discard')
      throw new UsageError('a plan never discards queued contacts: leave --queued-contacts discard out of it', {
        hint: 'make the change without --plan to discard them (it asks first)',
      });
    // The view holds what the command declared and what a plan needs: NEEDS, which `uses` adds.
    const planning: Uses<(typeof NEEDS)[number]> = context;
    await inner(context, args, options).catch((error: unknown) => {
      // The command stops where its write is held; any other failure is its own.
      if (planning.held.length === 0) throw error;
    });
    return writeHeld(planning, name, options, kinds);
  });
}

/** The plan of the held writes, shown with its impact, and written to --out when given (without it, as `content push --plan`, only shown). */
async function writeHeld(context: Uses<(typeof NEEDS)[number]>, name: string, { out: file, expires, code }: PlanOptions, kinds: PlanKinds): Promise<number> {
  const held = context.held.splice(0);
  if (held.length === 0) {
    context.out.note(file === undefined ? 'Nothing to change.' : `Nothing to change: no plan written to ${file}.`);
    return ExitCode.ok;
  }
  const client = await context.client();
  const units = [];
  for (const req of held) units.push(await requestUnit(client, req));
  const account = { ...(await whereOf(context, client)), ...(await witnessOf(client, kinds.witness, units)) };
  // What the change does to people and to the app, asked of the API now and kept under the plan's digest.
  const impact = await impactOf(client, kinds, units, { code });
  const plan = makePlan(name, account, false, units, context.runtime.now(), expires, impact);
  if (file !== undefined) await writePlan(context, file, plan);
  if (context.out.json) await context.out.writeJson(plan);
  else {
    await context.out.write(
      units.map((unit) => `# ${unit.record}: would change\n${unit.calls.map((call, index) => `  ${index + 1}. ${describeCall(call)}\n`).join('')}`).join(''),
    );
    const text = impactText(context.out, impact);
    if (text !== '') await context.out.write(`${text}\n`);
  }
  context.out.note(
    file === undefined
      ? `Nothing was sent: ${countOf(held.length, 'call')} to ${account.team} planned; give --out <file> to keep the plan for \`loopsctl apply\`.`
      : `Wrote the plan to ${file}: ${countOf(held.length, 'call')} to ${account.team}, to apply before ${plan.expiresAt} with \`loopsctl apply ${file}\`.`,
  );
  return ExitCode.ok;
}

function describeCall(call: Record<string, unknown>): string {
  const guard = call.read !== undefined ? `, if ${call.read} is still as read` : '';
  const revision = (call.body as { expectedRevisionId?: unknown } | null)?.expectedRevisionId;
  return `${call.operation as string} ${call.method as string} ${call.path as string}${revision === undefined ? guard : ` at revision ${String(revision)}`}`;
}
