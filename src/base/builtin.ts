/**
 * Node's built-in modules that only some runs need (child_process, crypto, dns, os, http, https, net, tty,
 * worker_threads for --jq's jq; sqlite for the sandbox's state;
 * module for --debug's source maps; sea, whether this is the single executable), loaded when first used rather than when the bundle starts.
 * process.getBuiltinModule does that in any module format (every Node loopsctl runs on has it, from 22.3).
 */
interface Builtins {
  'node:child_process': typeof import('node:child_process');
  'node:crypto': typeof import('node:crypto');
  'node:dns': typeof import('node:dns');
  'node:fs': typeof import('node:fs');
  'node:module': typeof import('node:module');
  'node:net': typeof import('node:net');
  'node:http': typeof import('node:http');
  'node:https': typeof import('node:https');
  'node:os': typeof import('node:os');
  'node:path': typeof import('node:path');
  'node:sea': typeof import('node:sea');
  'node:sqlite': typeof import('node:sqlite');
  'node:stream': typeof import('node:stream');
  'node:tty': typeof import('node:tty');
  'node:worker_threads': typeof import('node:worker_threads');
  'node:zlib': typeof import('node:zlib');
}

export function builtinModule<Name extends keyof Builtins>(name: Name): Builtins[Name] {
  return process.getBuiltinModule(name) as Builtins[Name];
}
