/** `loopsctl skill`: the SKILL.md that teaches an agent loopsctl, put where each agent reads skills. */
import { command, group, type Spec } from '../../core/declare.js';

const INSTALL_HELP = `Where each agent reads it (without --agent: each agent whose folder is in your
home directory):
  claude      ~/.claude/skills/loopsctl/SKILL.md
  codex       ~/.agents/skills/loopsctl/SKILL.md
  cursor      ~/.cursor/skills/loopsctl/SKILL.md
  dir=<path>  <path>/loopsctl/SKILL.md (a project's .claude/skills, say)
An installed copy you changed is never overwritten without --force; one that
loopsctl installed and you left as it was is brought up to date.`;

export const spec: Spec = group({
  name: 'skill',
  summary: "An agent skill (SKILL.md) that teaches loopsctl's safe habits: install it, or print it",
  examples: ['loopsctl skill install --dry-run', 'loopsctl skill install --agent claude'],
  commands: () => [
    command({
      name: 'install',
      summary: 'Write SKILL.md where Claude Code, Codex or Cursor reads skills',
      help: INSTALL_HELP,
      options: [
        {
          flags: '--agent <agent>',
          description: 'claude, codex, cursor or dir=<path> (repeatable; default: the agents found in your home)',
          repeatable: true,
        },
        { flags: '--dry-run', description: 'say which files would be written, and write nothing' },
        { flags: '--force', description: 'replace a copy that was changed since it was installed' },
      ],
      examples: [
        'loopsctl skill install --dry-run',
        'loopsctl skill install --agent claude --agent cursor',
        'loopsctl skill install --agent dir=.claude/skills --json',
      ],
      remote: false,
      load: async () => (await import('./commands.js')).install,
    }),
    command({
      name: 'show',
      summary: 'Print the SKILL.md loopsctl ships',
      examples: ['loopsctl skill show > AGENTS.md'],
      remote: false,
      load: async () => (await import('./commands.js')).show,
    }),
  ],
});
