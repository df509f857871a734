/** A response header as one trimmed string: the first of repeated values, undefined when absent. */
export function headerValue(value: string | string[] | undefined): string | undefined {
  return (Array.isArray(value) ? value[0] : value)?.trim();
}
