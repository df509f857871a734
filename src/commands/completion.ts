/** `loopsctl completion bash|zsh|fish`: a completion script for every command and flag. */
import type { Command } from 'commander';
import { completionTree } from '../completion/model.js';
import { completionScript, SHELLS } from '../completion/scripts.js';
import { loadAllGroups } from './index.js';
import { outputFor } from './context.js';
import { examples } from './options.js';

const LOADING: Record<(typeof SHELLS)[number], string[]> = {
  bash: ['echo \'source <(loopsctl completion bash)\' >> ~/.bashrc'],
  zsh: ['echo \'source <(loopsctl completion zsh)\' >> ~/.zshrc', 'loopsctl completion zsh > "${fpath[1]}/_loopsctl"'],
  fish: ['loopsctl completion fish > ~/.config/fish/completions/loopsctl.fish'],
};

export function register(group: Command): void {
  for (const shell of SHELLS) {
    examples(group.command(shell).description(`Print the ${shell} completion script`), LOADING[shell]).action(async (_options: unknown, self: Command) => {
      let program = self;
      while (program.parent !== null) program = program.parent;
      await loadAllGroups(program);
      await outputFor(self).write(completionScript(shell, completionTree(program)));
    });
  }
}
