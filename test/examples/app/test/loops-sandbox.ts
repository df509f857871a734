/** vitest's global set-up: a Loops sandbox for the whole run, with the team the fixtures declare. */
import { startSandbox } from 'loopsctl/sandbox';
import type { TestProject } from 'vitest/node';

export default async function setup(project: TestProject) {
  const sandbox = await startSandbox({ fixtures: 'loops.yaml' });
  project.provide('loops', { url: sandbox.url, apiKey: sandbox.apiKey });
  return () => sandbox.close();
}

declare module 'vitest' {
  export interface ProvidedContext {
    loops: { url: string; apiKey: string };
  }
}
