/** Command lines of the documentation and of `--help` examples, split as a shell would. */

/**
 * The words of a command line as a POSIX shell splits them (quotes, no expansion), with the
 * operators outside quotes (`|`, `>`, `<`) as words of their own.
 */
export function words(text: string): string[] {
  const found: string[] = [];
  let word: string | undefined;
  const end = () => {
    if (word !== undefined) found.push(word);
    word = undefined;
  };
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (char === "'" || char === '"') {
      const close = text.indexOf(char, index + 1);
      if (close < 0) throw new Error(`an unclosed quote in: ${text}`);
      const quoted = text.slice(index + 1, close);
      word = (word ?? '') + (char === '"' ? quoted.replace(/\\(["\\$`])/g, '$1') : quoted);
      index = close;
    } else if (char === ' ') {
      end();
    } else if (char === '|' || char === '>' || char === '<') {
      end();
      found.push(char);
    } else {
      word = (word ?? '') + char;
    }
  }
  end();
  return found;
}
