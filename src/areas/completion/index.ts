/** `loopsctl completion bash|zsh|fish`: a completion script for every command and flag. */
import { command, group } from '../../core/declare.js';
import { ID_LISTS } from '../../core/id-lists.js';
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
    help: `With LOOPSCTL_COMPLETE_IDS=1 in the environment, the scripts also complete ids (of workflows,
themes, transactional emails and groups) with their names: one attempt of at most a second for
the first page of the list, its answer kept for a minute in the config dir.`,
    commands: () => [
      ...(['bash', 'zsh', 'fish'] as const).map((shell) =>
        command({
          name: shell,
          summary: `Print the ${shell} completion script`,
          examples: LOADING[shell],
          remote: false,
          load: async () => (await import('./commands.js')).script(shell),
        }),
      ),
      command({
        name: '__ids',
        hidden: true,
        summary: 'Print the ids of a list with their names, for the completion scripts',
        args: [{ name: 'list', description: Object.keys(ID_LISTS).join(', ') }],
        examples: [],
        remote: true,
        tier: 'read',
        load: async () => (await import('./ids.js')).completeIds,
      }),
    ],
  }),
};
