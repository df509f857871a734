/**
 * The worker threads that run jq for --jq (see jq.ts), and what one process shares between its
 * runs of jq. Starting a thread, loading jq-web in it and compiling jq's WebAssembly cost far more
 * than most runs of an expression, and a process may run many (a listing's pages, a `loopsctl mcp`
 * serving call after call): jq's WebAssembly is compiled once per process and handed to each
 * worker, and a worker whose run ended as jq ends is kept for the next run, of any expression with
 * the same memory limit. A worker stopped at a limit, or one whose memory grew large, is ended.
 */
import type { Worker } from 'node:worker_threads';
import { builtinModule } from '../base/builtin.js';

/**
 * The worker: loads jq-web from the path it is given (node_modules, or dist/vendor in the bundle),
 * instantiating the WebAssembly module it is handed rather than compiling its own, runs each
 * expression it is sent, and answers with how it ended. console is taken over, so that nothing of
 * jq-web's reaches the terminal but through the reply.
 *
 * jq's output does not pile up: jq-web keeps what jq prints as an array of numbers, which an
 * expression that prints without end grows until the process dies of a full heap. jq's writes to
 * its stdout (WASI's fd_write on descriptor 1) are taken instead, handed over in chunks, and the
 * worker waits (on a shared gate) until the main thread has written each, so jq goes at the pace of
 * whoever reads the output; past maxOutput bytes the run is stopped. jq's own memory
 * (WebAssembly's, outside the worker's heap) may grow only to maxMemory: past it, jq's allocation
 * fails and the run ends. jq-web exposes neither, so both are reached through the imports it
 * instantiates its WebAssembly module with. A run that ends as jq ends says how large jq's memory
 * has grown, which it keeps for the next run.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const gate = new Int32Array(workerData.gate);
let messages = [];
const keep = (...args) => { messages.push(String(args[args.length - 1])); };
console.log = console.info = console.warn = console.error = console.debug = keep;

let bounded = false;
let overMemory = false;
let memory;
const instantiate = WebAssembly.instantiate;
WebAssembly.instantiate = async (_source, imports) => {
  const env = imports && imports.env;
  const wasi = imports && imports.wasi_snapshot_preview1;
  const resize = env && env.emscripten_resize_heap;
  const fdWrite = wasi && wasi.fd_write;
  if (typeof resize === 'function' && typeof fdWrite === 'function') {
    bounded = true;
    env.emscripten_resize_heap = (size) => ((size >>> 0) > workerData.maxMemory ? ((overMemory = true), false) : resize(size));
    wasi.fd_write = (fd, iov, count, written) => (fd === 1 ? writeOutput(iov, count, written) : fdWrite(fd, iov, count, written));
  }
  const instance = await instantiate(workerData.module, imports);
  memory = instance.exports.memory;
  return { module: workerData.module, instance };
};

const CHUNK = 64 * 1024;
const pending = new Uint8Array(CHUNK);
let filled = 0;
let total = 0;
function flush() {
  if (filled === 0) return;
  Atomics.store(gate, 0, 0);
  parentPort.postMessage({ chunk: pending.slice(0, filled) });
  filled = 0;
  Atomics.wait(gate, 0, 0);
}
/** WASI's fd_write for jq's stdout: the bytes of each buffer go into chunks, and their count is returned. */
function writeOutput(iov, count, written) {
  let sum = 0;
  for (let index = 0; index < count; index++) {
    const view = new DataView(memory.buffer);
    const start = view.getUint32(iov + index * 8, true);
    const length = view.getUint32(iov + index * 8 + 4, true);
    total += length;
    if (total > workerData.maxOutput) throw new Error('output limit');
    for (let offset = 0; offset < length; ) {
      const taken = Math.min(length - offset, CHUNK - filled);
      pending.set(new Uint8Array(memory.buffer, start + offset, taken), filled);
      filled += taken;
      offset += taken;
      if (filled === CHUNK) flush();
    }
    sum += length;
  }
  new DataView(memory.buffer).setUint32(written, sum, true);
  return 0;
}

const ready = require(workerData.jqPath).then((jq) => {
  if (!bounded) throw new Error('this jq-web is not one loopsctl can bound');
  return jq;
});

parentPort.on('message', async ({ input, expression }) => {
  messages = [];
  filled = 0;
  total = 0;
  try {
    const jq = await ready;
    jq.raw(input, expression, ['-c']);
    flush();
    parentPort.postMessage({ done: true, messages, memoryBytes: memory.buffer.byteLength });
  } catch (error) {
    if (total > workerData.maxOutput) return parentPort.postMessage({ tooLarge: true, messages });
    if (overMemory) return parentPort.postMessage({ outOfMemory: true, messages });
    // What jq printed before it failed is output, as jq itself would have printed it.
    flush();
    if (error && typeof error.exitCode === 'number') {
      const failed = { exitCode: error.exitCode, stderr: error.stderr ?? null };
      parentPort.postMessage({ failed, messages, memoryBytes: memory.buffer.byteLength });
    } else parentPort.postMessage({ crashed: String((error && error.message) || error), messages });
  }
});
`;

/** A worker thread that runs jq, and the gate it waits on while a chunk of its output is written: 0 waiting, 1 written. */
export interface JqWorker {
  readonly thread: Worker;
  readonly gate: Int32Array;
  /** The limit on jq's memory and on the worker's heap, in MB, which the worker keeps for its life. */
  readonly memoryMb: number;
}

/** A compiled WebAssembly module, handed to the workers as it is (the project's types leave out the DOM's WebAssembly). */
type WasmModule = object;
declare const WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> };

/**
 * The least heap a worker is given, whatever the limit: V8 ends the whole process, not the thread,
 * when a thread's heap cannot hold what it starts with (2 MB cannot). Below it, the limit still
 * bounds jq's own memory, which is what an expression grows.
 */
const MIN_WORKER_HEAP_MB = 16;

/** jq's memory past which a worker is ended after its run rather than kept holding it. */
const MAX_KEPT_MEMORY_BYTES = 64 * 1024 * 1024;

/** jq-web's module, which the workers load, and jq's WebAssembly compiled: made when jq first runs. */
let loaded: Promise<{ jqPath: string; module: WasmModule }> | undefined;
/** The worker kept from the last run that ended as jq ends, waiting for the next. */
let idle: JqWorker | undefined;

/** A worker for one run: the one kept, if it has the memory limit wanted, else a new one. */
export async function takeWorker(memoryMb: number, maxOutput: number): Promise<JqWorker> {
  const kept = idle;
  idle = undefined;
  // A thread that has stopped has no id left.
  kept?.thread.off('error', forgetIdle);
  if (kept !== undefined && kept.memoryMb === memoryMb && kept.thread.threadId !== -1) {
    kept.thread.ref();
    return kept;
  }
  if (kept !== undefined) void kept.thread.terminate();
  const { jqPath, module } = await (loaded ??= load());
  const gate = new SharedArrayBuffer(4);
  // Loaded here: a plain path to strings needs no worker (see jq-path.ts).
  const { Worker } = builtinModule('node:worker_threads');
  const thread = new Worker(WORKER, {
    eval: true,
    workerData: { jqPath, module, maxOutput, maxMemory: memoryMb * 1024 * 1024, gate },
    resourceLimits: { maxOldGenerationSizeMb: Math.max(memoryMb, MIN_WORKER_HEAP_MB) },
    // The worker's own streams would reach the terminal unsanitized: they are read and dropped.
    stdout: true,
    stderr: true,
  });
  thread.stdout.resume();
  thread.stderr.resume();
  return { thread, gate: new Int32Array(gate), memoryMb };
}

/**
 * After a run: a worker whose run ended as jq ends (`memoryBytes`, how large jq's memory has grown,
 * is known) is kept for the next run unless it holds much memory or another is kept already;
 * any other is ended, for after a run that was stopped it may be in any state.
 */
export function releaseWorker(worker: JqWorker, memoryBytes: number | undefined): void {
  if (memoryBytes === undefined || memoryBytes > MAX_KEPT_MEMORY_BYTES || idle !== undefined) {
    void worker.thread.terminate();
    return;
  }
  // Kept, it does not hold the process open; nor does an error of it while it waits end the process.
  worker.thread.unref();
  worker.thread.once('error', forgetIdle);
  idle = worker;
}

/** The kept worker failed while it waited (only the kept one listens so): the next run starts another. */
function forgetIdle(): void {
  idle = undefined;
}

async function load(): Promise<{ jqPath: string; module: WasmModule }> {
  const { path, wasmPath } = await import('./jq-web-loader.cjs');
  const module = await WebAssembly.compile(await builtinModule('node:fs').promises.readFile(wasmPath));
  return { jqPath: path, module };
}
