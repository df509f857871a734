/**
 * --jq: JSON output filtered through the jq language. jq itself runs, compiled to WebAssembly
 * (jq-web), so expressions mean exactly what they mean to jq; it is loaded only when --jq is given.
 * Each result comes back as one line of compact JSON, which the Output prints as `gh --jq` does.
 */
import type { Jq, JqError } from 'jq-web';
import { UsageError } from '../api/errors.js';

/** jq's exit status for an expression that does not compile. */
const COMPILE_ERROR = 3;

export class JqFilter {
  private constructor(
    private readonly jq: Jq,
    private readonly expression: string,
  ) {}

  /** Loads jq and checks the expression, so that a mistake in it is found before any request. */
  static async compile(expression: string): Promise<JqFilter> {
    const { loading } = await import('./jq-web-loader.cjs');
    const jq = await loading;
    // Without input, jq compiles the program and then has nothing to run it on.
    run(jq, '', expression);
    return new JqFilter(jq, expression);
  }

  /** The results of the expression on one JSON text, each as one line of compact JSON. */
  results(json: string): string[] {
    return run(this.jq, json, this.expression);
  }

  /**
   * The results of the expression on each item of a JSON array, in order: one run for the whole
   * array rather than one per item, which would compile the program again each time. The newline
   * ends a comment the expression may end with.
   */
  resultsOfEach(jsonArray: string): string[] {
    return run(this.jq, jsonArray, `.[] | (${this.expression}\n)`);
  }
}

function run(jq: Jq, input: string, expression: string): string[] {
  let output: string | undefined;
  try {
    output = jq.raw(input, expression, ['-c']);
  } catch (thrown) {
    const { exitCode, stderr } = thrown as JqError;
    if (exitCode === undefined) throw thrown;
    const message = jqMessage(stderr) || `jq stopped with status ${exitCode}`;
    if (exitCode === COMPILE_ERROR) {
      throw new UsageError(`invalid --jq expression: ${message}`, { code: 'jq', hint: 'see the jq manual: https://jqlang.org/manual/' });
    }
    throw new UsageError(`the --jq expression failed on the output: ${message}`, { code: 'jq' });
  }
  // jq-web removes the newline that ends jq's last line, and gives undefined for no output.
  return output === undefined ? [] : `${output}\n`.split('\n').slice(0, -1);
}

/**
 * jq's own error lines, without the "jq: error" prefixes, the echo of the program and the count
 * of compile errors; the name of jq's input file means nothing here either.
 */
function jqMessage(stderr: string | undefined): string {
  const lines = (stderr ?? '').split('\n').filter((line) => line.startsWith('jq: error'));
  // "... at <top-level>, line 1:" introduces the echo of the program, which is left out.
  const messages = lines.map((line) => line.replace(/^jq: error(?: \(at [^)]*\))?: /, '').replace(/:$/, ''));
  return messages.length > 0 ? messages.join('; ') : (stderr ?? '').trim();
}
