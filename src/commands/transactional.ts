/** `loopsctl transactional`: list transactional emails, their metrics, drafts, and create one. */
import type { Command } from 'commander';
import { mapLimit } from '../api/concurrency.js';
import { UsageError } from '../api/errors.js';
import { checkId } from '../api/ids.js';
import { renderDraftRecord, renderMetrics, transactionalListView } from '../render/transactional.js';
import type { TransactionalDraftRecord } from '../api/schemas.js';
import type { Output } from '../render/output.js';
import { clientFor, outputFor } from './context.js';
import { addListCommand } from './list.js';
import { examples } from './options.js';

/** How many metrics requests may be in flight at once. */
const METRICS_CONCURRENCY = 4;

export function register(group: Command): void {
  addListCommand(group, {
    resource: 'transactional',
    description: 'List transactional emails, most recently created first',
    example: 'loopsctl transactional list',
    view: transactionalListView,
  });

  examples(
    group
      .command('metrics')
      .description('Show all-time delivery metrics of one or more transactional emails')
      .argument('<id...>', 'transactional email ids'),
    ['loopsctl transactional metrics cll42l54f20i1la0lfooe3z12', 'loopsctl transactional metrics id1 id2 id3 --json'],
  ).action(async (ids: string[], _options: unknown, self: Command) => {
    ids.forEach((id) => checkId(id, 'transactional email id'));
    const client = await clientFor(self);
    const results = await mapLimit(ids, METRICS_CONCURRENCY, async (id) => ({ id, metrics: await client.transactionalMetrics(id) }));
    const out = outputFor(self);
    if (!out.json) return out.write(renderMetrics(out, results));
    if (results.length === 1) return out.writeJson(results[0]!.metrics);
    return out.writeJson(results.map(({ id, metrics }) => ({ transactionalId: id, ...metrics })));
  });

  examples(
    group
      .command('draft')
      .description('Make sure a transactional email has a draft, and show it (creates one from the published version if needed)')
      .argument('<id>', 'transactional email id'),
    ['loopsctl transactional draft cll42l54f20i1la0lfooe3z12', 'loopsctl transactional draft cll42l54f20i1la0lfooe3z12 --json | jq -r .draftEmailMessageContentRevisionId'],
  ).action(async (id: string, _options: unknown, self: Command) => {
    checkId(id, 'transactional email id');
    const client = await clientFor(self);
    await writeDraftRecord(outputFor(self), await client.ensureDraft(id));
  });

  examples(
    group
      .command('create')
      .description('Create a transactional email with an empty draft')
      .requiredOption('--name <name>', 'name of the transactional email')
      .option('--group <transactionalGroupId>', "group to put it in (default: the team's default group)"),
    ['loopsctl transactional create --name "Password reset"', 'loopsctl transactional create --name "Receipt" --group clg7n5p3q1r9s7t5u3v1w9y7 --json'],
  ).action(async (options: { name: string; group?: string }, self: Command) => {
    if (options.name.trim() === '') throw new UsageError('--name must not be empty');
    if (options.group !== undefined) checkId(options.group, 'transactional group id');
    const client = await clientFor(self);
    const body = options.group === undefined ? { name: options.name } : { name: options.name, transactionalGroupId: options.group };
    await writeDraftRecord(outputFor(self), await client.createTransactional(body));
  });
}

async function writeDraftRecord(out: Output, record: TransactionalDraftRecord): Promise<void> {
  if (out.json) return out.writeJson(record);
  const { body, note } = renderDraftRecord(out, record);
  await out.write(body);
  if (note !== undefined) out.note(note);
}
