/** `loopsctl commands` for a person: one entry per command, its usage then its summary. */
import type { Output } from '../../render/output.js';
import { styleFor } from '../../render/style.js';
import type { CommandInfo, CommandTree } from './model.js';

const WIDTH = 80;
const INDENT = '    ';

export function renderCommandList(out: Output, tree: CommandTree): string {
  const style = styleFor(out);
  const entries = tree.commands.map(
    (command) =>
      `${style.bold(usage(command))}\n${wrap(command.summary, WIDTH - INDENT.length)
        .map((line) => `${INDENT}${line}`)
        .join('\n')}`,
  );
  return `${entries.join('\n')}\n\nEvery command also takes the global options: see \`loopsctl --help\`.\n`;
}

function usage(command: CommandInfo): string {
  const args = command.arguments.map(({ name, required, variadic }) => {
    const word = `${name}${variadic ? '...' : ''}`;
    return required ? `<${word}>` : `[${word}]`;
  });
  const remote = command.remote ? '' : '  (local)';
  return `loopsctl ${[...command.path, ...args].join(' ')}${command.options.length > 0 ? ' [options]' : ''}${remote}`;
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  return [...lines, line];
}
