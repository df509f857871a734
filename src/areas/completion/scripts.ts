/**
 * Completion scripts for bash, zsh and fish (PowerShell's in powershell.ts), generated from the command tree. bash and zsh share
 * one design: lookup functions keyed by the command path ("workflow show") answer which
 * subcommands, flags and flag values are possible there, and the completion function walks the
 * words typed so far to find the path. fish states the same facts as `complete` rules.
 */
import { type CompletionCommand, type CompletionOption, walk } from './model.js';
import { powershellScript } from './powershell.js';
import { fileFlags, flags, functionPrefix, oneLine, valueFlags } from './words.js';

export const SHELLS = ['bash', 'zsh', 'fish', 'powershell'] as const;
export type Shell = (typeof SHELLS)[number];

/** A word bash and zsh read as itself with no quotes: a flag, a command's name (no `=` first, which zsh expands). */
const PLAIN_WORD = /^[A-Za-z0-9_@+:,./-][A-Za-z0-9_@+=:,./-]*$/;

/**
 * A POSIX word: as it is where it needs no quotes, which keeps the bash script within what a pipe
 * takes at once (`bin/loopsctl.js` prints it straight from the build), else single-quoted.
 */
function shQuote(text: string): string {
  return PLAIN_WORD.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

function fishQuote(text: string): string {
  return `'${text.replace(/[\\']/g, (char) => `\\${char}`)}'`;
}

/**
 * A shell `case` over the command path, with one branch per path that has something to say, each
 * by its pattern as shell text (a quoted key, matched as it is); `after` runs whatever the path.
 * Keys that say the same share a branch (`'deliveries find'|'deliveries show')`), which keeps the
 * bash script within what a pipe takes at once; a pattern with a wildcard keeps its own place, as
 * the keys before it must be tried first.
 */
function caseFunction(name: string, subject: string, branches: [pattern: string, value: string][], after?: string): string {
  const merged: [patterns: string[], value: string][] = [];
  const byValue = new Map<string, string[]>();
  for (const [pattern, value] of branches) {
    const exact = !pattern.startsWith('*');
    const same = exact ? byValue.get(value) : undefined;
    if (same !== undefined) {
      same.push(pattern);
      continue;
    }
    const patterns = [pattern];
    merged.push([patterns, value]);
    if (exact) byValue.set(value, patterns);
  }
  const body = merged.map(([patterns, value]) => `    ${patterns.join('|')}) ${value} ;;`).join('\n');
  return `${name}() {\n  case ${subject} in\n${body}\n  esac\n${after === undefined ? '' : `  ${after}\n`}}\n`;
}

const sameOption = (one: CompletionOption, other: CompletionOption) =>
  one.names.join() === other.names.join() &&
  one.description === other.description &&
  one.takesValue === other.takesValue &&
  one.takesFile === other.takesFile &&
  one.choices.join() === other.choices.join();

/**
 * What every branch of the lookups prints with, its words on one line or one a line: two short
 * functions rather than printf on each of hundreds of branches, so that bash's script stays under
 * what a pipe takes at once (bin/loopsctl.js then prints it without starting the program).
 */
const SAY_WORDS = '__lcw';
const SAY_LINES = '__lcn';

/**
 * The lookup functions bash and zsh both use; `describe` says whether lines carry descriptions.
 * Lists are printed one entry a line, for the scripts to read as data: none is ever expanded. The
 * flags every command takes (the global ones) are said once, after the branch of a command's own:
 * said for each of some 150 commands, they made the scripts three times as long, and a shell reads
 * the whole script at every start.
 */
function lookupFunctions(root: CompletionCommand, prefix: string, describe: boolean): string {
  const commands = walk(root);
  const below = commands.filter(({ path }) => path.length > 0);
  const shared = root.options.filter((option) => below.every(({ command }) => command.options.some((other) => sameOption(other, option))));
  /** What a path says itself: the program everything; a command what is not shared. */
  const own = (path: string[], options: CompletionOption[]) =>
    path.length === 0 ? options : options.filter((option) => !shared.some((common) => sameOption(common, option)));
  const key = (path: string[]) => shQuote(path.join(' '));
  // Words on one line, each followed by a space, so that a command's own and the shared ones read as one list.
  const oneLineOfWords = (words: string[]) => `${SAY_WORDS} ${words.map(shQuote).join(' ')}`;
  const list = (lines: string[]) => `${SAY_LINES} ${lines.map(shQuote).join(' ')}`;
  const entry = (name: string, description: string) => (describe ? `${name}:${oneLine(description)}` : name);
  const optionLines = (options: CompletionOption[]) =>
    describe ? options.flatMap((option) => option.names.map((name) => entry(name, option.description))) : flags(options);
  /** Branches of the paths with something of their own to say, by what `say` makes of their own flags. */
  const ownBranches = (say: (options: CompletionOption[]) => string[], show: (words: string[]) => string): [string, string][] =>
    commands.flatMap(({ path, command }) => {
      const words = say(own(path, command.options));
      return words.length === 0 ? [] : [[key(path), show(words)] as [string, string]];
    });
  /** Below the program, the shared flags too; `words` may be none. */
  const sharedAfter = (words: string[], show: (words: string[]) => string) => (words.length === 0 ? undefined : `[ -z "$1" ] || ${show(words)}`);
  return [
    `${SAY_WORDS}() { printf '%s ' "$@"; }`,
    `${SAY_LINES}() { printf '%s\\n' "$@"; }`,
    caseFunction(
      `${prefix}_commands`,
      '"$1"',
      commands
        .filter(({ command }) => command.commands.length > 0)
        .map(({ path, command }) => [key(path), list(command.commands.map((child) => entry(child.name, child.description)))]),
    ),
    caseFunction(
      `${prefix}_resolve`,
      '"$1"',
      // A word names a command of the path as itself, or by an alias: a case of its own per path.
      commands
        .filter(({ command }) => command.commands.length > 0)
        .map(({ path, command }) => {
          const names = `${command.commands.map((child) => shQuote(child.name)).join('|')}) echo "$2" ;;`;
          const aliases = command.commands.flatMap((child) => child.aliases.map((alias) => ` ${shQuote(alias)}) echo ${shQuote(child.name)} ;;`));
          return [key(path), `case "$2" in ${names}${aliases.join('')} esac`];
        }),
    ),
    caseFunction(`${prefix}_options`, '"$1"', ownBranches(optionLines, list), sharedAfter(optionLines(shared), list)),
    caseFunction(`${prefix}_value_options`, '"$1"', ownBranches(valueFlags, oneLineOfWords), sharedAfter(valueFlags(shared), oneLineOfWords)),
    caseFunction(`${prefix}_file_options`, '"$1"', ownBranches(fileFlags, oneLineOfWords), sharedAfter(fileFlags(shared), oneLineOfWords)),
    caseFunction(
      `${prefix}_ids`,
      '"$1"',
      commands.flatMap(({ path, command }) => (command.ids === undefined ? [] : [[key(path), `echo ${shQuote(command.ids)}`] as [string, string]])),
    ),
    // What `help` takes at the top besides command names: the topics (`help exit-codes`).
    caseFunction(
      `${prefix}_topics`,
      '"$1"',
      (root.topics ?? []).length === 0 ? [] : [["''", list((root.topics ?? []).map((topic) => entry(topic.name, topic.description)))]],
    ),
    caseFunction(`${prefix}_choices`, '"$1/$2"', [
      ...commands.flatMap(({ path, command }) =>
        own(path, command.options)
          .filter((option) => option.choices.length > 0)
          .flatMap((option) => option.names.map((name): [string, string] => [shQuote(`${path.join(' ')}/${name}`), list(option.choices)])),
      ),
      // A shared flag's values, on any path.
      ...shared
        .filter((option) => option.choices.length > 0)
        .flatMap((option) => option.names.map((name): [string, string] => [`*${shQuote(`/${name}`)}`, list(option.choices)])),
    ]),
  ].join('\n');
}

/** SAFE_ID as a case pattern of what is not one, and as fish's regular expression. */
const SAFE_ID_CASE = `''|-*|*[!A-Za-z0-9_.-]*`;
const SAFE_ID_FISH = '^[A-Za-z0-9][A-Za-z0-9_.-]*(?:\\t[^[:cntrl:]]*)?$';

/**
 * With LOOPSCTL_COMPLETE_IDS=1, the ids of the list a command's arguments take, as `id<TAB>name`
 * lines: asked of loopsctl itself with the --sandbox or --profile typed on the line (given as $2,
 * which `splitFlags` splits into words as the shell needs: zsh does not split by itself); it
 * answers within a second or two, and with nothing at all on any failure. Lines are read as data
 * and kept only when the id has the safe alphabet and the name no control character.
 */
function idsFunction(prefix: string, program: string, splitFlags: string): string {
  return `${prefix}_complete_ids() {
  [ "$LOOPSCTL_COMPLETE_IDS" = 1 ] || return 0
  local list id name
  list="$(${prefix}_ids "$1")"
  [ -n "$list" ] || return 0
  ${program} ${splitFlags} completion __ids "$list" 2>/dev/null | while IFS="$(printf '\\t')" read -r id name; do
    case "$id" in
      ${SAFE_ID_CASE}) continue ;;
    esac
    case "$name" in
      *[[:cntrl:]]*) continue ;;
    esac
    printf '%s\\t%s\\n' "$id" "$name"
  done
}
`;
}

/**
 * The loop that finds the command path from the words before the cursor, in either shell, and
 * the global flags that choose the account (--sandbox, --profile), for completing ids. A group's
 * `help` sets `helping` and leaves the path where it was: the words after it name commands of
 * that group (`help workflow show`), as after the group itself.
 */
function pathWalk(prefix: string, wordsVar: string, first: number, current: string): string {
  return `  local cmd_path="" id_flags="" helping="" word next i=${first}
  while [ "$i" -lt "${current}" ]; do
    word="\${${wordsVar}[i]}"
    case "$word" in
      --profile=*) id_flags="$id_flags --profile \${word#--profile=}" ;;
      -*=*) ;;
      -*)
        case "$word" in
          --sandbox) id_flags="$id_flags --sandbox" ;;
          --profile)
            # bash splits --profile=work into three words: --profile, =, work.
            if [ "\${${wordsVar}[i+1]}" = "=" ]; then i=$((i + 1)); fi
            id_flags="$id_flags --profile \${${wordsVar}[i+1]}" ;;
        esac
        case " $(${prefix}_value_options "$cmd_path") " in
          *" $word "*) i=$((i + 1)) ;;
        esac ;;
      *)
        next="$(${prefix}_resolve "$cmd_path" "$word")"
        if [ "$next" = help ] && [ -z "$helping" ]; then helping=1
        elif [ -n "$next" ]; then cmd_path="\${cmd_path:+$cmd_path }$next"; fi ;;
    esac
    i=$((i + 1))
  done`;
}

function bashScript(root: CompletionCommand): string {
  const prefix = functionPrefix(root.name);
  return `# bash completion for ${root.name}, generated by \`${root.name} completion bash\`.
# Load it in ~/.bashrc with: source <(${root.name} completion bash)

${lookupFunctions(root, prefix, false)}
${idsFunction(prefix, root.name, '$2')}
# Adds the lines read that start with the word typed; a prefix test, never compgen -W or eval,
# so that no line is expanded or run.
${prefix}_offer() {
  local line
  while IFS= read -r line; do
    [[ -n "$line" && "$line" == "$1"* ]] && COMPREPLY+=("$line")
  done
  return 0
}

${prefix}_complete() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" option="\${COMP_WORDS[COMP_CWORD-1]}"
${pathWalk(prefix, 'COMP_WORDS', 1, '$COMP_CWORD')}
  # "--format=me" arrives as three words: --format, =, me.
  if [ "$cur" = "=" ]; then cur=""; elif [ "$option" = "=" ]; then option="\${COMP_WORDS[COMP_CWORD-2]}"; fi
  COMPREPLY=()
  if [ -n "$helping" ]; then
    # After help: the commands of the path, and at the top the topics; never file names.
    compopt +o default 2>/dev/null
    case "$cur" in
      -*) ;;
      *) ${prefix}_offer "$cur" < <(${prefix}_commands "$cmd_path"; ${prefix}_topics "$cmd_path") ;;
    esac
    return 0
  fi
  if [ "$COMP_CWORD" -gt 1 ]; then
    case " $(${prefix}_value_options "$cmd_path") " in
      *" $option "*)
        ${prefix}_offer "$cur" < <(${prefix}_choices "$cmd_path" "$option")
        # File names only for a flag that takes a file: never for --email <Tab>.
        case " $(${prefix}_file_options "$cmd_path") " in
          *" $option "*) ;;
          *) compopt +o default 2>/dev/null ;;
        esac
        return 0 ;;
    esac
  fi
  case "$cur" in
    -*) ${prefix}_offer "$cur" < <(${prefix}_options "$cmd_path") ;;
    *)
      if [ -n "$(${prefix}_ids "$cmd_path")" ]; then
        # An id is never a file name, whether or not ids are completed.
        compopt +o default 2>/dev/null
        ${prefix}_offer "$cur" < <(${prefix}_complete_ids "$cmd_path" "$id_flags" | cut -f1)
      else
        ${prefix}_offer "$cur" < <(${prefix}_commands "$cmd_path")
      fi ;;
  esac
}

# With no match, bash falls back to file names: for a file argument or a flag that takes a file
# only, as the completion function turns the fallback off everywhere else.
complete -o default -F ${prefix}_complete ${root.name}
`;
}

function zshScript(root: CompletionCommand): string {
  const prefix = functionPrefix(root.name);
  return `#compdef ${root.name}
# zsh completion for ${root.name}, generated by \`${root.name} completion zsh\`.
# Load it in ~/.zshrc with: source <(${root.name} completion zsh)
# or save it as _${root.name} in a directory of $fpath.

${lookupFunctions(root, prefix, true)}
${idsFunction(prefix, root.name, '${=2}')}
_${root.name}() {
  local cur="\${words[CURRENT]}" option="\${words[CURRENT-1]}"
${pathWalk(prefix, 'words', 2, '$CURRENT')}
  local -a entries
  if [ -n "$helping" ]; then
    # After help: the commands of the path, and at the top the topics; never file names.
    [[ "$cur" == -* ]] && return
    entries=("\${(@f)$(${prefix}_commands "$cmd_path"; ${prefix}_topics "$cmd_path")}")
    [[ -n "\${entries[1]}" ]] && _describe -t commands command entries
    return
  fi
  if [ "$CURRENT" -gt 2 ] && [[ " $(${prefix}_value_options "$cmd_path") " == *" $option "* ]]; then
    entries=("\${(@f)$(${prefix}_choices "$cmd_path" "$option")}")
    [[ -n "\${entries[1]}" ]] || entries=()
    if (( \${#entries} )); then compadd -- "\${entries[@]}"
    elif [[ " $(${prefix}_file_options "$cmd_path") " == *" $option "* ]]; then _files; fi
    return
  fi
  if [[ "$cur" == -* ]]; then
    entries=("\${(@f)$(${prefix}_options "$cmd_path")}")
    _describe -t options option entries
  else
    entries=("\${(@f)$(${prefix}_commands "$cmd_path")}")
    if [[ -n "\${entries[1]}" ]]; then
      _describe -t commands command entries
    elif [[ -n "$(${prefix}_ids "$cmd_path")" ]]; then
      entries=("\${(@f)$(${prefix}_complete_ids "$cmd_path" "$id_flags" | tr '\\t' ':')}")
      [[ -n "\${entries[1]}" ]] && _describe -t ids id entries
    else
      _files
    fi
  fi
}

if [ "\${funcstack[1]}" = "_${root.name}" ]; then
  _${root.name} "$@"
else
  compdef _${root.name} ${root.name}
fi
`;
}

function fishScript(root: CompletionCommand): string {
  const idsFunction = `__${root.name.replace(/[^A-Za-z0-9_]/g, '_')}_complete_ids`;
  const lines = [
    `# fish completion for ${root.name}, generated by \`${root.name} completion fish\`.`,
    `# Load it with: ${root.name} completion fish | source`,
    '',
    '# With LOOPSCTL_COMPLETE_IDS=1: ids with their names, for the account the line chooses.',
    `function ${idsFunction}`,
    '    test "$LOOPSCTL_COMPLETE_IDS" = 1; or return',
    '    set -l flags',
    '    set -l words (commandline -opc)',
    '    for i in (seq (count $words))',
    '        switch $words[$i]',
    '            case --sandbox',
    '                set -a flags --sandbox',
    '            case --profile',
    '                set -l next (math $i + 1)',
    '                set -q words[$next]; and set -a flags --profile $words[$next]',
    "            case '--profile=*'",
    '                set -a flags --profile (string replace -- --profile= "" $words[$i])',
    '        end',
    '    end',
    `    ${root.name} $flags completion __ids $argv[1] 2>/dev/null | string match -r -- ${fishQuote(SAFE_ID_FISH)}`,
    'end',
    '',
  ];
  const header = lines.length;
  // A condition shared by many rules (every subcommand of a group is offered on the same one) is
  // a function of its own: written into each rule, it made the script several times larger.
  const conditions = new Map<string, string>();
  const when = (parts: string[]): string => {
    const test = parts.join('; and ');
    if (parts.length === 1 && !test.includes(' not ')) return fishQuote(test);
    let name = conditions.get(test);
    if (name === undefined) {
      name = `__${root.name.replace(/[^A-Za-z0-9_]/g, '_')}_when_${conditions.size + 1}`;
      conditions.set(test, name);
    }
    return name;
  };
  const seen = (names: string[]) => `__fish_seen_subcommand_from ${names.join(' ')}`;
  const namesOf = (command: CompletionCommand) => [command.name, ...command.aliases];
  // The program's own flags get one unconditional rule each; deeper rules add only the rest.
  const globalNames = new Set(flags(root.options));
  const visit = (command: CompletionCommand, ancestors: CompletionCommand[]) => {
    const within = ancestors.map((ancestor) => seen(namesOf(ancestor)));
    const childNames = command.commands.flatMap(namesOf);
    // Subcommands are offered until one of them has been typed.
    const offerChildren = ancestors.length === 0 ? ['__fish_use_subcommand'] : [...within, `not ${seen(childNames)}`];
    for (const child of command.commands) {
      lines.push(`complete -c ${root.name} -f -n ${when(offerChildren)} -a ${fishQuote(child.name)} -d ${fishQuote(oneLine(child.description))}`);
    }
    // After the group's help: its commands, and at the top the topics (`help workflow show`, `help exit-codes`).
    const helpCommand = command.commands.find((child) => child.name === 'help');
    if (helpCommand !== undefined) {
      const others = command.commands.filter((child) => child !== helpCommand);
      const helping = when([...within, seen(namesOf(helpCommand)), `not ${seen(others.flatMap(namesOf))}`]);
      const words = [
        ...others.map((child) => [child.name, child.description]),
        ...(ancestors.length === 0 ? (root.topics ?? []).map((topic) => [topic.name, topic.description]) : []),
      ];
      for (const [name, description] of words) {
        lines.push(`complete -c ${root.name} -f -n ${helping} -a ${fishQuote(name!)} -d ${fishQuote(oneLine(description!))}`);
      }
    }
    const here = ancestors.length === 0 ? [] : childNames.length > 0 ? [...within, `not ${seen(childNames)}`] : within;
    const options = ancestors.length === 0 ? command.options : command.options.filter((option) => !option.names.every((name) => globalNames.has(name)));
    for (const option of options) {
      const condition = here.length > 0 ? ` -n ${when(here)}` : '';
      const names = option.names.map((name) => (name.startsWith('--') ? `-l ${name.slice(2)}` : `-s ${name.slice(1)}`)).join(' ');
      // -x: a value, and no file names; -r -F: a file.
      const value = option.choices.length > 0 ? ` -x -a ${fishQuote(option.choices.join(' '))}` : option.takesFile ? ' -r -F' : option.takesValue ? ' -x' : '';
      lines.push(`complete -c ${root.name}${condition} ${names}${value} -d ${fishQuote(oneLine(option.description))}`);
    }
    if (command.ids !== undefined) {
      lines.push(`complete -c ${root.name} -f -n ${when(within)} -a ${fishQuote(`(${idsFunction} ${command.ids})`)}`);
    }
    for (const child of command.commands) visit(child, [...ancestors, child]);
  };
  visit(root, []);
  const definitions = [...conditions].map(([test, name]) => `function ${name}; ${test}; end`);
  lines.splice(header, 0, ...definitions, '');
  return `${lines.join('\n')}\n`;
}

export function completionScript(shell: Shell, root: CompletionCommand): string {
  return { bash: bashScript, zsh: zshScript, fish: fishScript, powershell: powershellScript }[shell](root);
}
