/**
 * Mutation testing of the modules where a bug costs most: `npm run mutate -- <group>` (see
 * docs/development.md). Stryker is not a dependency: the script runs it through npx. Each group
 * names the files it mutates and the test files that guard them; only those tests run.
 */
export const groups = {
  transport: {
    mutate: ['src/api/retry.ts', 'src/api/http.ts', 'src/api/idempotency.ts'],
    tests: [
      'test/unit/api/retry.test.ts',
      'test/unit/api/http.test.ts',
      'test/unit/api/client.test.ts',
      'test/unit/api/idempotency.test.ts',
      'test/e2e/api/idempotency.test.ts',
      // sendOnce and the onAttempt count it reads; beforeWrite (protected profiles).
      'test/e2e/areas/events/events.test.ts',
      'test/e2e/areas/transactional/send.test.ts',
      'test/e2e/areas/api/api.test.ts',
      'test/e2e/core/protect.test.ts',
      'test/e2e/api/rate-limits.test.ts',
      'test/e2e/api/server-and-network.test.ts',
      'test/e2e/api/invalid-answers.test.ts',
      'test/e2e/api/answer-limits.test.ts',
    ],
  },
  imports: {
    mutate: ['src/core/import-journal.ts', 'src/core/bulk.ts', 'src/areas/contacts/import.ts', 'src/areas/events/commands.ts'],
    tests: [
      'test/unit/core/import-journal.test.ts',
      'test/unit/core/bulk.test.ts',
      'test/e2e/core/bulk.test.ts',
      'test/e2e/core/bulk-interrupt.test.ts',
      'test/e2e/areas/events/journal.test.ts',
      'test/e2e/areas/events/journal-short-writes.test.ts',
      'test/e2e/areas/events/events.test.ts',
      'test/e2e/areas/contacts/import.test.ts',
    ],
  },
  keys: {
    mutate: ['src/config/store.ts', 'src/config/keychain.ts'],
    tests: ['test/unit/config/store.test.ts', 'test/unit/base/lock-takeover.test.ts', 'test/e2e/config/profiles.test.ts'],
  },
  webhooks: {
    mutate: ['src/platform/webhooks/signature.ts'],
    tests: ['test/unit/platform/webhooks/signature.test.ts', 'test/e2e/areas/webhooks/loop.test.ts', 'test/e2e/areas/webhooks/listen-trigger.test.ts'],
  },
  // loopsctl/webhooks, an app's side: verifying, parsing, the handler, the contact fold and the
  // delivery store on both databases (PostgreSQL's tests run where the server is installed), with the
  // redaction of the store URLs it names. (test/spawned/webhooks runs the built bundles, which a
  // mutation of src/ does not reach.)
  handler: {
    mutate: ['src/webhooks/**/*.ts', 'src/base/redact-url.ts'],
    tests: [
      'test/unit/webhooks/verify.test.ts',
      'test/unit/webhooks/handler.test.ts',
      'test/unit/webhooks/event-types.test.ts',
      'test/unit/webhooks/contact-state.test.ts',
      'test/unit/webhooks/sqlite-store.test.ts',
      'test/unit/webhooks/grouped.test.ts',
      'test/e2e/webhooks/postgres-store.test.ts',
      'test/unit/base/redact-url.test.ts',
    ],
  },
  // The terminal's side: webhooks listen (the receiver, the forward queue, alerts), trigger, and the
  // deliveries commands over the journal (find, show, stats, prune, replay, alerts), and the ground
  // they share.
  deliveries: {
    mutate: ['src/areas/webhooks/*.ts', 'src/areas/webhooks-shared/*.ts', 'src/areas/deliveries/*.ts', 'src/base/instant.ts'],
    tests: [
      'test/unit/areas/webhooks-shared/alerts.test.ts',
      'test/unit/areas/webhooks/forward-queue.test.ts',
      'test/unit/areas/deliveries/replay-run.test.ts',
      'test/unit/areas/deliveries/reconcile.test.ts',
      'test/unit/areas/deliveries/reconcile-contacts.test.ts',
      'test/e2e/areas/webhooks/listen-trigger.test.ts',
      'test/e2e/areas/webhooks/listen-store-failure.test.ts',
      'test/e2e/areas/webhooks/loop.test.ts',
      'test/e2e/areas/webhooks/sandbox-events.test.ts',
      'test/e2e/areas/deliveries/journal.test.ts',
      'test/e2e/areas/deliveries/replay-alerts.test.ts',
      'test/e2e/areas/deliveries/reconcile.test.ts',
    ],
  },
  mcp: {
    mutate: ['src/core/tier.ts', 'src/areas/mcp/*.ts'],
    tests: ['test/unit/areas/mcp/tools.test.ts', 'test/unit/areas/mcp/calls.test.ts', 'test/e2e/areas/mcp/mcp.test.ts', 'test/e2e/areas/mcp/server.test.ts'],
  },
  // A file per verb (its entry, then each half: the emails' and the workflows'): pull, push (its plan
  // and its writes, and the guards that keep a workflow push from overwriting an edit made in the
  // app), diff, and what they share.
  content: {
    mutate: [
      'src/areas/content/pull-command.ts',
      'src/areas/content/push-command.ts',
      'src/areas/content/diff-command.ts',
      'src/areas/content/emails/*.ts',
      'src/areas/content/workflows/*.ts',
      'src/areas/content/shared/scope.ts',
      'src/areas/content/shared/files.ts',
      'src/areas/content/shared/tree.ts',
      'src/areas/content/shared/email-view.ts',
    ],
    tests: [
      'test/e2e/areas/content/content.test.ts',
      'test/e2e/areas/content/push-runs.test.ts',
      'test/e2e/areas/content/attacks.test.ts',
      'test/e2e/areas/content/push-guards.test.ts',
      'test/e2e/areas/content/workflows.test.ts',
      'test/unit/areas/content/workflows/plan.test.ts',
      'test/unit/areas/content/emails/writes.test.ts',
    ],
  },
  // The sandbox's clock and the journeys it runs, through what an app sees of them.
  journeys: {
    mutate: ['src/emulator/journeys/*.ts', 'src/emulator/trial.ts', 'src/emulator/routes/journey-starts.ts', 'src/emulator/clock.ts', 'src/emulator/journey-records.ts'],
    tests: [
      'test/unit/emulator/journeys/engine.test.ts',
      'test/unit/emulator/journey-records.test.ts',
      'test/unit/emulator/journeys/filters.test.ts',
      'test/e2e/emulator/journeys.test.ts',
      'test/e2e/emulator/journey-rules.test.ts',
      'test/e2e/areas/sandbox/journeys.test.ts',
      'test/e2e/areas/workflows/test-command.test.ts',
    ],
  },
  // The module `types` writes, checked by the TypeScript compiler.
  types: {
    mutate: ['src/areas/types/*.ts'],
    tests: [
      'test/e2e/areas/types/types.test.ts',
      'test/unit/areas/types/generate.test.ts',
      'test/unit/areas/types/formats.test.ts',
      'test/unit/areas/types/helpers.test.ts',
      'test/unit/areas/types/stable-names.test.ts',
    ],
  },
  // check, and check --code's scan of a repository (its links are the links group's).
  check: {
    mutate: ['src/areas/check/**/*.ts', '!src/areas/check/links/**', 'src/app-code/*.ts'],
    tests: [
      'test/unit/app-code/uses.test.ts',
      'test/unit/app-code/bounds.test.ts',
      'test/unit/app-code/prefilter.test.ts',
      'test/unit/areas/check/github-annotations.test.ts',
      'test/unit/areas/check/rules.test.ts',
      'test/e2e/areas/check/check.test.ts',
      'test/e2e/areas/check/code.test.ts',
    ],
  },
  // check --links, and the one fetcher for outside addresses it and every other fetch of an address
  // from content or a user go through: which addresses are refused, the connection to the address
  // judged, redirects, the bounds at a host and in all, and each verdict's edges. (The check of
  // 2,000 links, link-scale.test.ts, holds the same bounds at a cost each mutant would pay again.)
  links: {
    mutate: ['src/areas/check/links/*.ts', 'src/api/fetcher.ts', 'src/base/outside-address.ts'],
    tests: [
      'test/unit/base/outside-address.test.ts',
      'test/e2e/api/fetcher.test.ts',
      'test/e2e/areas/check/links.test.ts',
      'test/e2e/areas/check/link-verdicts.test.ts',
      'test/e2e/areas/check/link-bounds.test.ts',
      'test/e2e/areas/check/link-host-bound.test.ts',
      'test/e2e/areas/check/link-reads.test.ts',
    ],
  },
  // The workflow rule book both sides read: node types, their fields, workflow.yaml.
  workflows: {
    mutate: ['src/platform/workflows/*.ts'],
    tests: [
      'test/unit/platform/workflows/creation.test.ts',
      'test/unit/platform/workflows/graph.test.ts',
      'test/unit/platform/workflows/rules.test.ts',
      'test/e2e/areas/content/workflow-malformed.test.ts',
      'test/unit/areas/content/workflows/plan.test.ts',
      'test/e2e/areas/sandbox/node-rules.test.ts',
      'test/e2e/areas/workflows/editing.test.ts',
      'test/e2e/areas/content/workflows.test.ts',
    ],
  },
  // The update notice (what it announces, how often it asks, how much of the feed it reads) and what
  // a release is made of (src/build/release.mjs's decisions; its npm pack and Node's SEA are
  // test/spawned/build/release.test.ts's, which `npm run test:release` runs).
  release: {
    mutate: ['src/core/update-notice.ts', 'src/core/update-check.ts', 'src/build/release.mjs'],
    tests: ['test/unit/core/update-notice.test.ts', 'test/unit/core/update-feed-bound.test.ts', 'test/unit/build/release.test.ts'],
  },
  // The audience half of a content tree: segments and groups pulled, diffed, checked and pushed, and
  // records matched by name, in both halves.
  audience: {
    mutate: ['src/areas/content/audience/*.ts', 'src/areas/change/namesakes.ts'],
    tests: [
      'test/e2e/areas/content/audience.test.ts',
      'test/e2e/areas/content/audience-pushes.test.ts',
      'test/e2e/areas/segments/segments.test.ts',
      'test/unit/areas/change/namesakes.test.ts',
    ],
  },
  // Moving emails in: convert's readers (MJML, React Email, HTML), its mapper into LMX, the fidelity
  // check that lists what was not carried, and images uploaded. (The layouts held to Chromium's
  // rendering, convert-layout-browser.test.ts, convert-layout-browser-mjml.test.ts,
  // convert-stacking-browser.test.ts, convert-lmx-browser.test.ts,
  // convert-lmx-browser-foundation.test.ts, convert-lmx-browser-mjml.test.ts,
  // convert-lmx-browser-react.test.ts, convert-react-browser.test.ts and the colours and positions
  // measured in convert-look-browser-{foundation,html,mjml,react,shops,team}.test.ts, start a browser that each
  // mutant would start again.)
  convert: {
    mutate: ['src/convert/**/*.ts', 'src/areas/content/convert/*.ts'],
    tests: [
      'test/unit/convert/fidelity.test.ts',
      'test/unit/convert/sources/mjml-source.test.ts',
      'test/unit/convert/styles.test.ts',
      'test/unit/convert/variables.test.ts',
      'test/unit/convert/readable.test.ts',
      'test/unit/convert/shapes.test.ts',
      'test/unit/convert/known-bugs.test.ts',
      'test/unit/convert/checked.test.ts',
      'test/unit/convert/details.test.ts',
      'test/unit/convert/layout/layout.test.ts',
      'test/unit/convert/layout/layout-carried.test.ts',
      'test/unit/convert/layout/layout-model.test.ts',
      'test/unit/convert/sources/html-cascade.test.ts',
      'test/unit/convert/styled-twins.test.ts',
      'test/unit/convert/sources/mjml-style.test.ts',
      'test/unit/convert/names.test.ts',
      'test/unit/convert/sources/react-conditions.test.ts',
      'test/unit/convert/template-blocks.test.ts',
      'test/unit/convert/losses.test.ts',
      'test/unit/convert/sources/markdown.test.ts',
      'test/unit/base/tree-walk.test.ts',
      'test/e2e/areas/content/convert.test.ts',
      'test/e2e/areas/content/convert-input.test.ts',
      'test/e2e/areas/content/convert-bounds.test.ts',
      'test/e2e/areas/content/convert-corpus.test.ts',
      'test/e2e/areas/content/convert-upload-waits.test.ts',
      'test/e2e/areas/content/convert-social.test.ts',
      'test/e2e/areas/content/convert-subject.test.ts',
      'test/e2e/areas/content/convert-static.test.ts',
      'test/e2e/areas/content/convert-upload-private.test.ts',
    ],
  },
  // migrate report: an app's templates and its sends through another provider.
  migrate: {
    mutate: ['src/areas/migrate/*.ts'],
    tests: [
      'test/e2e/areas/migrate/report.test.ts',
      'test/e2e/areas/migrate/report-calls.test.ts',
      'test/e2e/areas/migrate/report-out.test.ts',
      'test/e2e/areas/migrate/report-left.test.ts',
      'test/unit/areas/migrate/sends.test.ts',
      'test/unit/base/tree-walk.test.ts',
    ],
  },
  // The sandbox's state in SQLite: its members and row slices (the journeys' among them), read on first use, written under the lock, and a server's watch of it.
  store: {
    mutate: ['src/emulator/state/store.ts', 'src/emulator/state/rows.ts', 'src/emulator/journey-rows.ts', 'src/emulator/state/index.ts', 'src/emulator/state/watch.ts'],
    tests: [
      'test/unit/emulator/state/state.test.ts',
      'test/unit/emulator/state/watch.test.ts',
      'test/unit/emulator/state/journeys.test.ts',
      'test/unit/emulator/state/rows.test.ts',
      'test/unit/emulator/core.test.ts',
      'test/unit/emulator/in-process.test.ts',
      'test/e2e/emulator/inbox.test.ts',
      'test/e2e/areas/content/lmx-ids.test.ts',
      'test/e2e/core/hostile-inputs.test.ts',
    ],
  },
  // The change cycle: the gate every write passes, plans (their file, their checks, their apply),
  // before-images and undo, and a person's approval of an agent's change.
  changes: {
    mutate: [
      'src/core/gate.ts',
      'src/platform/write-gate.ts',
      'src/platform/configuration-writes.ts',
      'src/platform/liveness.ts',
      'src/areas/change/*.ts',
      'src/areas/content/emails/kind.ts',
      'src/areas/content/workflows/kind.ts',
      'src/areas/apply/*.ts',
      'src/areas/undo/*.ts',
      'src/areas/approve/*.ts',
      'src/areas/mcp/approval.ts',
      'src/areas/mcp/workflow-tools.ts',
    ],
    tests: [
      'test/unit/platform/write-gate.test.ts',
      'test/unit/platform/configuration-writes.test.ts',
      'test/unit/platform/liveness.test.ts',
      'test/unit/areas/change/plan-units.test.ts',
      'test/unit/areas/change/plan-file.test.ts',
      'test/unit/areas/change/approvals.test.ts',
      'test/unit/core/gate.test.ts',
      'test/e2e/core/gate.test.ts',
      'test/attack/commands.test.ts',
      'test/attack/mcp.test.ts',
      'test/attack/plans.test.ts',
      'test/e2e/areas/apply/apply.test.ts',
      'test/e2e/areas/apply/applied-twice.test.ts',
      'test/e2e/areas/apply/forged.test.ts',
      'test/e2e/areas/apply/full-disk.test.ts',
      'test/e2e/areas/apply/plan-kinds.test.ts',
      'test/e2e/areas/undo/undo.test.ts',
      'test/e2e/areas/undo/undo-refusals.test.ts',
      'test/e2e/areas/apply/reads-once.test.ts',
      'test/e2e/areas/apply/part-way.test.ts',
      'test/e2e/areas/apply/own-record.test.ts',
      'test/attack/binding.test.ts',
      'test/e2e/areas/mcp/bound-yes.test.ts',
      'test/unit/areas/change/stale.test.ts',
      'test/e2e/areas/content/review-plan.test.ts',
      'test/e2e/areas/mcp/approval.test.ts',
      'test/e2e/areas/mcp/workflow-tools.test.ts',
    ],
  },
  // content review: the two sides read, compared and their blocks paired, the digest a person
  // approves, the views (page, screenshots, comment, message) and previews the platform sends.
  review: {
    mutate: ['src/areas/content/review/*.ts', 'src/areas/content/review-command.ts'],
    tests: [
      'test/unit/areas/content/review/pairs.test.ts',
      'test/unit/areas/content/review/sides.test.ts',
      'test/unit/areas/content/review/bounded.test.ts',
      'test/unit/areas/content/review/chromium.test.ts',
      'test/unit/areas/content/review/embedded-images.test.ts',
      'test/e2e/areas/content/review.test.ts',
      'test/e2e/areas/content/review-page.test.ts',
      'test/e2e/areas/content/review-plan.test.ts',
      'test/e2e/areas/content/review-code.test.ts',
      'test/e2e/areas/content/review-previews.test.ts',
      'test/e2e/areas/content/review-screenshots.test.ts',
      'test/e2e/areas/content/review-images.test.ts',
    ],
  },
  // The shell scripts themselves are checked by test/spawned (real shells, the built binary), which a
  // mutation of src/ does not reach: survivors in scripts.ts are mostly theirs.
  completion: {
    mutate: ['src/areas/completion/*.ts'],
    tests: ['test/e2e/areas/completion/ids.test.ts', 'test/e2e/areas/commands/commands.test.ts'],
  },
};

const name = process.env.LOOPSCTL_MUTATE;
const group = groups[name];
if (!group) throw new Error(`name a group to mutate: npm run mutate -- ${Object.keys(groups).join('|')}`);
// Read by vitest.mutation.config.ts, in the processes Stryker starts.
process.env.LOOPSCTL_MUTATE_TESTS = group.tests.join(',');

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  coverageAnalysis: 'perTest',
  mutate: group.mutate,
  // The machine's other work goes on: two test processes at most.
  concurrency: 2,
  timeoutMS: 30_000,
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  htmlReporter: { fileName: `reports/mutation/${name}.html` },
  tempDirName: '.stryker-tmp',
  // Stryker rewrites the paths of a tsconfig that reaches outside the project, with a TypeScript it
  // would need beside it; this project's do not, and vitest does not read them: a name no file has
  // turns that off.
  tsconfigFile: 'none',
  // Stryker would otherwise put `// @ts-nocheck` atop every .ts and .tsx file under test/ and src/,
  // the apps and emails the tests read among them (test/examples, test/corpus), moving the lines a
  // report names; vitest checks no types, so mutated code needs no such line.
  disableTypeChecks: false,
  cleanTempDir: 'always',
};
