/**
 * A Loops client that knows the API only from its published description, as a client generated
 * from it would: it finds an operation by its operationId, builds the URL from the description's
 * path template under a base URL standing for the description's server (`…/api`), sends only the
 * parameters the operation declares, refuses to send a body its request schema does not take
 * (or none, where the operation requires one), and checks every answer against
 * the response the description gives for its status. It shares no code with loopsctl's client.
 */
import { type OpenApi, requestProblems, responseProblems } from './openapi.js';

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
}

interface Located {
  method: string;
  template: string;
  parameters: Parameter[];
  bodySchema?: Record<string, any>;
  bodyRequired: boolean;
}

export interface CallInput {
  path?: Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** The JSON body. */
  body?: unknown;
}

export interface Answer {
  status: number;
  body: any;
}

export class DescribedClient {
  /** The operationIds called so far. */
  readonly called = new Set<string>();
  /** What did not fit the description in the answers, each naming its operation. */
  readonly problems: string[] = [];
  private readonly operations = new Map<string, Located>();

  constructor(
    private readonly doc: OpenApi,
    /** Stands for the description's server URL, such as `http://127.0.0.1:4010/api`. */
    private readonly base: string,
    private readonly key: string,
  ) {
    for (const [template, item] of Object.entries(doc.paths)) {
      const shared = ((item as { parameters?: Parameter[] }).parameters ?? []) as Parameter[];
      for (const [method, operation] of Object.entries(item)) {
        const described = operation as {
          operationId?: string;
          parameters?: Parameter[];
          requestBody?: { required?: boolean; content?: Record<string, { schema: Record<string, any> }> };
        };
        if (described.operationId === undefined) continue;
        this.operations.set(described.operationId, {
          method: method.toUpperCase(),
          template,
          parameters: [...shared, ...(described.parameters ?? [])],
          bodySchema: described.requestBody?.content?.['application/json']?.schema,
          bodyRequired: described.requestBody?.required === true,
        });
      }
    }
  }

  /** Every operationId the description has. */
  operationIds(): string[] {
    return [...this.operations.keys()];
  }

  async call(operationId: string, input: CallInput = {}): Promise<Answer> {
    const operation = this.operations.get(operationId);
    if (operation === undefined) throw new Error(`the description has no operation ${operationId}`);
    const declared = (where: Parameter['in']) => operation.parameters.filter((parameter) => parameter.in === where);
    const path = operation.template.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = input.path?.[name];
      if (value === undefined) throw new Error(`${operationId} needs the path parameter ${name}`);
      return encodeURIComponent(value);
    });
    const url = new URL(`${this.base}${path}`);
    for (const [name, value] of Object.entries(input.query ?? {})) {
      if (!declared('query').some((parameter) => parameter.name === name)) throw new Error(`${operationId} declares no query parameter ${name}`);
      url.searchParams.set(name, value);
    }
    const headers: Record<string, string> = { authorization: `Bearer ${this.key}` };
    for (const [name, value] of Object.entries(input.headers ?? {})) {
      if (!declared('header').some((parameter) => parameter.name.toLowerCase() === name.toLowerCase()))
        throw new Error(`${operationId} declares no header ${name}`);
      headers[name] = value;
    }
    const body = input.body;
    if (body === undefined && operation.bodyRequired) throw new Error(`${operationId} requires a body`);
    const refused = requestProblems(this.doc, operation.method, path, body);
    if (refused.length > 0) throw new Error(`${operationId}: the description does not take this body: ${refused.join('; ')}`);
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(url, { method: operation.method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return this.received(operationId, operation, path, response);
  }

  /** Follows a list's pagination.nextPage as given: a URL the client did not build. */
  async follow(operationId: string, nextPage: string): Promise<Answer> {
    const operation = this.operations.get(operationId)!;
    const url = new URL(nextPage);
    if (!url.pathname.endsWith(operation.template)) throw new Error(`${operationId}: nextPage ${nextPage} is not a page of ${operation.template}`);
    const response = await fetch(url, { headers: { authorization: `Bearer ${this.key}` } });
    return this.received(operationId, operation, operation.template, response);
  }

  private async received(operationId: string, operation: Located, path: string, response: Response): Promise<Answer> {
    this.called.add(operationId);
    const text = await response.text();
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      this.problems.push(`${operationId} answered ${response.status} with a body that is not JSON: ${text.slice(0, 80)}`);
    }
    for (const problem of responseProblems(this.doc, operation.method, path, response.status, body)) {
      this.problems.push(`${operationId} answered ${response.status} ${JSON.stringify(body)}: ${problem}`);
    }
    return { status: response.status, body };
  }
}
