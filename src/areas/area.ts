/**
 * What an area of the API brings: its command declarations (cheap, loaded with every run) and its
 * part of the sandbox (routes, state and seed data, loaded only when a sandbox starts).
 */
import type { Spec } from '../core/declare.js';
import type { SandboxModule } from '../sandbox/module.js';

export interface Area {
  spec: Spec;
  sandbox?: () => Promise<SandboxModule>;
}
