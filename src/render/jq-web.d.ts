/** jq-web: jq compiled to WebAssembly; its module resolves once the WebAssembly is instantiated. */
declare module 'jq-web' {
  export interface JqError extends Error {
    /** jq's exit status: 2 for bad usage, 3 for a compile error, 5 for an error while running. */
    exitCode?: number;
    /** What jq wrote on stderr. */
    stderr?: string;
  }
  export interface Jq {
    /**
     * Runs jq on the JSON text `input` with the command-line `flags`: what jq printed, one trailing
     * newline removed, or undefined when it printed nothing. Throws a JqError when jq exits non-zero.
     */
    raw(input: string, filter: string, flags?: string[]): string | undefined;
  }
  const jq: Promise<Jq>;
  export default jq;
}
