/** `loopsctl completion bash|zsh|fish|powershell`: a completion script for every command and flag. */
import { command, group, type Spec } from '../../core/declare.js';
import { ID_LISTS } from '../../core/id-lists.js';

const LOADING = {
  bash: ["echo 'source <(loopsctl completion bash)' >> ~/.bashrc"],
  zsh: ["echo 'source <(loopsctl completion zsh)' >> ~/.zshrc", 'loopsctl completion zsh > "${fpath[1]}/_loopsctl"'],
  fish: ['loopsctl completion fish > ~/.config/fish/completions/loopsctl.fish'],
  powershell: ['loopsctl completion powershell > loopsctl.ps1'],
};

export const spec: Spec = group({
  name: 'completion',
  summary: 'Shell completion scripts for bash, zsh, fish and PowerShell',
  examples: ['loopsctl completion bash > ~/.local/share/bash-completion/completions/loopsctl'],
  help: `With LOOPSCTL_COMPLETE_IDS=1 in the environment, the scripts also complete ids (of workflows,
themes, transactional emails and groups) with their names: one attempt of at most a second for
the first page of the list, its answer kept for a minute in the config dir.`,
  commands: () => [
    ...(['bash', 'zsh', 'fish', 'powershell'] as const).map((shell) =>
      command({
        name: shell,
        summary: `Print the ${shell === 'powershell' ? 'PowerShell' : shell} completion script`,
        examples: LOADING[shell],
        remote: false,
        load: async (tree) => (await import('./commands.js')).script(shell, tree),
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
});
