/**
 * `loopsctl mcp` run in-process through `main()`, as the binary runs it, with the protocol SDK's
 * own client connected to its stdin and stdout: the same server, without a process per test.
 */
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type ElicitRequest, ElicitRequestSchema, type ElicitResult, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { type Result, type RunOptions, run } from './main.js';

/** The client side of a server's stdin and stdout. */
class StreamsTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly buffer = new ReadBuffer();

  constructor(private readonly toServer: PassThrough) {}

  async start(): Promise<void> {}

  receive(chunk: string): void {
    this.buffer.append(Buffer.from(chunk));
    for (let message = this.buffer.readMessage(); message !== null; message = this.buffer.readMessage()) this.onmessage?.(message);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.toServer.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    this.toServer.end();
    this.onclose?.();
  }
}

export interface McpRun {
  client: Client;
  /** What the server wrote on stderr so far. */
  stderr(): string;
  /** Closes the client (the server's stdin) and resolves with the run's result. */
  close(): Promise<Result>;
  /** The run's result, once the server ends. */
  result: Promise<Result>;
}

/**
 * How the client's person answers the server's questions (MCP elicitation): a function of the
 * question, or false for a client that cannot ask (it declares no elicitation capability). By
 * default the person approves, as the person who asked the agent for a send would.
 */
export type Person = ((request: ElicitRequest['params']) => ElicitResult | Promise<ElicitResult>) | false;

export const approvingPerson: Person = () => ({ action: 'accept', content: { approve: true } });

/**
 * The client's check of each answer against the output schema tools/list gave, compiled once a
 * schema for the whole test process: compiling them is most of what a listing costs a client, and
 * every server of the tests lists the same schemas. The check itself is the SDK's own.
 */
class CompiledOnce implements jsonSchemaValidator {
  private readonly ajv = new AjvJsonSchemaValidator();
  private readonly compiled = new Map<string, JsonSchemaValidator<unknown>>();

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const key = JSON.stringify(schema);
    let validator = this.compiled.get(key);
    if (validator === undefined) {
      validator = this.ajv.getValidator(schema);
      this.compiled.set(key, validator);
    }
    return validator as JsonSchemaValidator<T>;
  }
}

/** The schemas' checks the test clients use, for a test that checks an answer itself. */
export const outputChecks = new CompiledOnce();

/** The protocol SDK's client, as an agent whose person answers as given would make it. */
export function mcpClient(person: Person = approvingPerson): Client {
  const client = new Client(
    { name: 'loopsctl-test', version: '1.0.0' },
    { jsonSchemaValidator: outputChecks, ...(person === false ? {} : { capabilities: { elicitation: { form: {} } } }) },
  );
  if (person !== false) client.setRequestHandler(ElicitRequestSchema, async (request) => person(request.params));
  return client;
}

/** Starts `loopsctl mcp <args>` in-process and connects a client; rejects with the run's stderr if the server ends first. */
export async function startMcp(args: string[], options: RunOptions & { person?: Person } = {}): Promise<McpRun> {
  const toServer = new PassThrough();
  const transport = new StreamsTransport(toServer);
  let stderr = '';
  const result = run(['mcp', ...args], {
    ...options,
    input: toServer,
    onWrite: (stream, text) => {
      if (stream === 'stdout') transport.receive(text);
      else stderr += text;
      options.onWrite?.(stream, text);
    },
  });
  const client = mcpClient(options.person);
  const ended = result.then((finished) => {
    throw new Error(`the server ended (exit ${finished.code}): ${finished.stderr}`);
  });
  await Promise.race([client.connect(transport), ended]);
  ended.catch(() => {});
  return {
    client,
    stderr: () => stderr,
    result,
    close: async () => {
      await client.close();
      return result;
    },
  };
}
