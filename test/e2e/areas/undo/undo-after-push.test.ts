/**
 * Where a content push left a workflow, which `undo` compares with: the answer of its last write
 * ("the latest simplified workflow"), not a read after it, so a teammate's edit made the moment
 * after the write is a conflict for `undo`, never taken for the push's own.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { workflows } from '../../../../src/emulator/routes/workflow-records.js';
import { tempDir } from '../../../support/main.js';
import { type Recorded, sandboxEachTest } from '../../../support/recording.js';
import { edit, workflowDir } from '../../../support/workflow-tree.js';

const WIN_BACK = 'cw509z9tjxv56rte3vt30437u';
const SCORE = 'cu46uqyjwgaeml2epsiw5a711';
const ONLY = ['--only', 'workflows'];
const directories: string[] = [];
afterAll(() => directories.forEach((directory) => rmSync(directory, { recursive: true, force: true })));
const sandboxes = sandboxEachTest();

const samplingRate = (state: Parameters<typeof workflows.of>[0]) =>
  (
    workflows
      .of(state)
      .find((each) => each.id === WIN_BACK)!
      .nodes.find((node) => node.id === SCORE) as { samplingRate?: number }
  ).samplingRate;

describe('undo of a content push of a workflow', () => {
  it("takes where the push left it from its last write's answer: a teammate's edit made the moment after the write is a conflict", async () => {
    const sandbox = await sandboxes();
    const directory = tempDir('loopsctl-undo-push-');
    directories.push(directory);
    const env = { LOOPSCTL_CONFIG_DIR: join(directory, 'config') };
    const root = join(directory, 'loops');
    expect((await sandbox.loopsctl(['content', 'pull', root, ...ONLY], { env })).code).toBe(0);
    edit(join(workflowDir(root, 'win-back-draft'), 'workflow.yaml'), 'samplingRate: 20', 'samplingRate: 25');
    // The node's write is answered; at once, before anything could read the workflow again, a teammate edits it in the app.
    const recorded = sandbox.requests;
    const push = recorded.push.bind(recorded);
    let edited = false;
    recorded.push = (...items: Recorded[]) => {
      if (!edited && items.some((request) => request.method === 'POST' && request.path.startsWith(`/v1/workflows/${WIN_BACK}/nodes/`))) {
        edited = true;
        sandbox.server.update((state) => {
          const workflow = workflows.of(state).find((each) => each.id === WIN_BACK)!;
          (workflow.nodes.find((node) => node.id === SCORE) as { samplingRate?: number }).samplingRate = 35;
          workflow.workflowRevisionId = 'edited-in-the-app';
        });
      }
      return push(...items);
    };
    const pushed = await sandbox.loopsctl(['content', 'push', root, ...ONLY], { env });
    recorded.push = push;
    expect(edited).toBe(true);
    expect(pushed.code, pushed.stderr).toBe(0);
    const id = /`loopsctl undo (\S+)` puts it back/.exec(pushed.stderr)![1]!;
    const undo = await sandbox.loopsctl(['undo', id, '--yes'], { env });
    expect(undo.code, undo.stderr).toBe(5);
    expect(undo.stderr).toContain('changed in the account since; nothing was sent');
    expect(samplingRate(sandbox.server.state())).toBe(35);
  });
});
