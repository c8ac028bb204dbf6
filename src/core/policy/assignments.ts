// Environment variables that make programs run something else: a shell sources $BASH_ENV, the dynamic loader
// loads $LD_PRELOAD, git runs $GIT_SSH_COMMAND and $GIT_PAGER. Setting one is checked like the command it names,
// or, when it names a file whose content is unknown here, held for a person.
import type { Step } from './steps.js';
import type { Arg } from './types.js';

/** Variables whose value is a file of code or settings that is loaded or run: the content is unknown here. */
const LOADS_CODE =
  /^(BASH_ENV|ENV|LD_PRELOAD|LD_AUDIT|GIT_EXEC_PATH|GIT_CONFIG_PARAMETERS|GIT_CONFIG_COUNT|GIT_CONFIG_KEY_\d+|GIT_CONFIG_VALUE_\d+|SHELLOPTS|BASHOPTS|PERL5OPT|PERL5DB|RUBYOPT|NODE_OPTIONS|PYTHONSTARTUP|PYTHONINSPECT|PS0|PS1|PS2|PS4|ZDOTDIR|INPUTRC)$/;

/** Variables whose value is a command line the program runs through the shell. */
const RUNS_COMMAND =
  /^(PROMPT_COMMAND|GIT_SSH_COMMAND|GIT_SSH|GIT_PAGER|PAGER|MANPAGER|SYSTEMD_PAGER|GIT_EDITOR|EDITOR|VISUAL|SUDO_EDITOR|GIT_SEQUENCE_EDITOR|GIT_EXTERNAL_DIFF|GIT_ASKPASS|SSH_ASKPASS|SUDO_ASKPASS|LESSOPEN|LESSCLOSE|BROWSER|RSYNC_RSH|FCEDIT|GIT_PROXY_COMMAND|CVS_RSH)$/;

/** Option variables that are harmless unless they load code (`--require x.js`, `-Mmodule`, `-d`). */
const OPTION_VARS = /^(NODE_OPTIONS|PERL5OPT|RUBYOPT)$/;
const LOADS_MODULE = /(^|\s)(-r|--require|--import|--loader|--experimental-loader|-M|-m|-d)/;

export function assignmentSteps(name: string, value: Arg): Step[] {
  if (LOADS_CODE.test(name)) {
    if (!value.dynamic && /^(|0|false|no)$/.test(value.value)) return [];
    if (/^PS\d$/.test(name) && !value.dynamic && !/\$\(|`/.test(value.value)) return [];
    if (OPTION_VARS.test(name) && !value.dynamic && !LOADS_MODULE.test(value.value)) return [];
    return [
      { kind: 'opaque', why: `${name}=${value.value} makes programs load or run code that cannot be checked here` },
    ];
  }
  if (RUNS_COMMAND.test(name) && value.value !== '') {
    const text = /^LESS(OPEN|CLOSE)$/.test(name) ? value.value.replace(/^\|+/, '').replace(/%s/g, 'file') : value.value;
    return [{ kind: 'code', text, dynamic: value.dynamic, via: name }];
  }
  return [];
}
