/** `metrics_history`, `metrics_experiments` and `metrics_alerts`, tools of `loopsctl mcp` at its read tier, on the sandbox. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, tempDir } from '../../../support/main.js';
import { startMcp } from '../../../support/mcp.js';
import { SEED_IDS } from '../../../support/sandbox.js';

type Answer = { isError?: boolean; structuredContent?: Record<string, unknown>; content: { text: string }[] };

describe('the metrics tools of loopsctl mcp', () => {
  it('answer at the read tier: a history from the store the person chose, and the experiments judged; the store is no input', async () => {
    const configDir = tempDir();
    // The delivery journal the person's environment names, which history reads before the first snapshot.
    const journal = join(configDir, 'deliveries.db');
    const env = { LOOPSCTL_CONFIG_DIR: configDir, LOOPS_DELIVERY_STORE: journal };
    const snapshot = await run(['--sandbox', 'metrics', 'snapshot'], { env });
    expect(snapshot.code, snapshot.stderr).toBe(0);
    const mcp = await startMcp(['--sandbox'], { env });
    try {
      const { tools } = await mcp.client.listTools();
      const history = tools.find((tool) => tool.name === 'metrics_history')!;
      expect(history.annotations).toMatchObject({ readOnlyHint: true });
      expect(Object.keys(history.inputSchema.properties ?? {})).not.toContain('store');
      expect(Object.keys(history.inputSchema.properties ?? {})).not.toContain('deliveryStore');
      expect(Object.keys(history.inputSchema.properties ?? {})).not.toContain('out');
      expect(tools.map((tool) => tool.name)).toContain('metrics_experiments');

      const answer = (await mcp.client.callTool({ name: 'metrics_history', arguments: { email: SEED_IDS.welcomeEmail } })) as Answer;
      expect(answer.isError, answer.content[0]?.text).toBeFalsy();
      expect(JSON.parse(answer.content[0]!.text)).toMatchObject({
        email: { name: 'Welcome' },
        by: 'day',
        journal: { store: journal, from: null },
        periods: [{ status: 'start' }],
      });

      const judged = (await mcp.client.callTool({ name: 'metrics_experiments', arguments: { workflow: SEED_IDS.experimentWorkflow } })) as Answer;
      expect(judged.isError, judged.content[0]?.text).toBeFalsy();
      const [report] = JSON.parse(judged.content[0]!.text) as { judgement: { metrics: { metric: string; verdict: string }[] } }[];
      expect(report!.judgement.metrics.find((metric) => metric.metric === 'opens')!.verdict).toBe('better');

      const alerts = tools.find((tool) => tool.name === 'metrics_alerts')!;
      expect(alerts.annotations).toMatchObject({ readOnlyHint: true });
      expect(Object.keys(alerts.inputSchema.properties ?? {})).not.toContain('alert');
      const reconcile = tools.find((tool) => tool.name === 'deliveries_reconcile')!;
      expect(reconcile.annotations).toMatchObject({ readOnlyHint: true });
      expect(Object.keys(reconcile.inputSchema.properties ?? {})).not.toContain('store');
      expect(Object.keys(reconcile.inputSchema.properties ?? {})).not.toContain('metricsStore');
      const quiet = (await mcp.client.callTool({ name: 'metrics_alerts', arguments: {} })) as Answer;
      expect(quiet.isError, quiet.content[0]?.text).toBeFalsy();
      expect(JSON.parse(quiet.content[0]!.text)).toMatchObject({ judged: expect.any(Number), alerts: [] });
    } finally {
      await mcp.close();
    }
  });
});
