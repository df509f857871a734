/** `loopsctl completion bash|zsh|fish`: a completion script for every command and flag. */
import { command, group } from '../../core/declare.js';
import type { Area } from '../area.js';

const LOADING = {
  bash: ["echo 'source <(loopsctl completion bash)' >> ~/.bashrc"],
  zsh: ["echo 'source <(loopsctl completion zsh)' >> ~/.zshrc", 'loopsctl completion zsh > "${fpath[1]}/_loopsctl"'],
  fish: ['loopsctl completion fish > ~/.config/fish/completions/loopsctl.fish'],
};

export const area: Area = {
  spec: group({
    name: 'completion',
    summary: 'Shell completion scripts for bash, zsh and fish',
    examples: ['loopsctl completion bash > ~/.local/share/bash-completion/completions/loopsctl'],
    commands: (['bash', 'zsh', 'fish'] as const).map((shell) =>
      command({
        name: shell,
        summary: `Print the ${shell} completion script`,
        examples: LOADING[shell],
        remote: false,
        load: async () => (await import('./commands.js')).script(shell),
      }),
    ),
  }),
};
