"""``lshdesk completion bash|zsh``: a shell completion script made from the command line's own parser.

Install: ``lshdesk completion bash > ~/.local/share/bash-completion/completions/lshdesk`` (bash), or add
``eval "$(lshdesk completion zsh)"`` to ``~/.zshrc`` (zsh, through its bash-completion layer ``bashcompinit``).
Commands, options and the choices of options (``--family``, ``--format``...) complete; paths complete as files.
"""

from __future__ import annotations

import argparse
import shlex

SHELLS = ("bash", "zsh")


def _options(parser: argparse.ArgumentParser) -> tuple[list[str], dict[str, list[str]]]:
    """A parser's option strings, and the fixed choices of those that take one."""
    flags: list[str] = []
    choices: dict[str, list[str]] = {}
    for action in parser._actions:  # argparse has no public walk of its actions
        flags.extend(s for s in action.option_strings if s.startswith("--"))
        if action.option_strings and action.choices:
            for s in action.option_strings:
                choices[s] = [str(c) for c in action.choices]
    return flags, choices


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def bash_script(parser: argparse.ArgumentParser) -> str:
    """The bash completion function for ``parser`` (its program name), with ``complete`` to register it."""
    prog = parser.prog
    subs = _subcommands(parser)
    top_flags, _ = _options(parser)
    cases, choice_cases = [], []
    for name, sub in subs.items():
        flags, choices = _options(sub)
        cases.append(f"        {name}) opts={shlex.quote(' '.join(flags))} ;;")
        for flag, values in choices.items():
            choice_cases.append(f"        {name}:{flag}) words={shlex.quote(' '.join(values))} ;;")
    positional_choices = [
        f"        {name}) words={shlex.quote(' '.join(map(str, a.choices)))} ;;"
        for name, sub in subs.items()
        for a in sub._actions
        if not a.option_strings and a.choices and not isinstance(a, argparse._SubParsersAction)
    ]
    fn = "_" + prog.replace("-", "_")
    return f"""# bash completion for {prog} (made by: {prog} completion bash)
{fn}() {{
    local cur prev cmd="" i opts words=""
    cur="${{COMP_WORDS[COMP_CWORD]}}"
    prev="${{COMP_WORDS[COMP_CWORD-1]}}"
    for ((i = 1; i < COMP_CWORD; i++)); do
        case "${{COMP_WORDS[i]}}" in {"|".join(subs)}) cmd="${{COMP_WORDS[i]}}"; break ;; esac
    done
    case "$cmd:$prev" in
{chr(10).join(choice_cases)}
    esac
    if [[ -z "$words" && -n "$cmd" && "$cur" != -* ]]; then
        case "$cmd" in
{chr(10).join(positional_choices)}
        esac
    fi
    if [[ -n "$words" ]]; then
        COMPREPLY=($(compgen -W "$words" -- "$cur"))
        return
    fi
    case "$cmd" in
{chr(10).join(cases)}
        *) opts={shlex.quote(" ".join(top_flags))} ;;
    esac
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    elif [[ -z "$cmd" ]]; then
        COMPREPLY=($(compgen -W {shlex.quote(" ".join(subs))} -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}}
complete -o filenames -o bashdefault -F {fn} {prog}
"""


def script(shell: str, parser: argparse.ArgumentParser) -> str:
    """The completion script for ``shell`` (bash or zsh)."""
    if shell == "zsh":
        return f'# zsh completion for {parser.prog}: eval "$({parser.prog} completion zsh)" in ~/.zshrc\n' + (
            "(( $+functions[compdef] )) || { autoload -U +X compinit && compinit; }\n"
            "autoload -U +X bashcompinit && bashcompinit\n" + bash_script(parser)
        )
    return bash_script(parser)
