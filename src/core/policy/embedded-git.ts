// Commands git runs for you: aliases (`git -c alias.x='!rm -rf /' x`), config keys whose value is a command
// (`core.pager`, `core.sshCommand`, `diff.external`…), and subcommand options that take one (`rebase --exec`,
// `submodule foreach`, `bisect run`, `--upload-pack`, `filter-branch --tree-filter`). Each is checked as shell code.
import { readGit } from './git.js';
import { inner, opaque, type Step } from './steps.js';
import type { Arg, Cmd } from './types.js';

/** git config keys whose value is a command git runs (through the shell). */
const COMMAND_KEYS =
  /^(core\.(sshcommand|pager|editor|fsmonitor|askpass)|sequence\.editor|diff\.external|diff\..+\.(textconv|command)|filter\..+\.(clean|smudge|process)|merge\..+\.driver|gpg(\..+)?\.program|pager\..+|credential(\..+)?\.helper|uploadpack\.packobjectshook|web\.browser|browser\..+\.cmd|difftool\..+\.cmd|mergetool\..+\.cmd|sendemail\.(smtpserver|sendmailcmd|tocmd|cccmd))$/;
/** Keys that point git at files of hooks or more config: their commands are unknown here. */
const FILE_KEYS = /^(core\.hookspath|include\.path|includeif\..+\.path)$/;

export function gitConfigSteps(key: string, value: Arg, via: string): Step[] {
  if (FILE_KEYS.test(key))
    return opaque(`${via} points git at hooks or config files whose commands cannot be checked here`);
  if (/^alias\./.test(key)) {
    // `!cmd` is shell code; anything else is a git command line.
    return value.value.startsWith('!')
      ? [{ kind: 'code', text: value.value.slice(1), dynamic: value.dynamic, via: `${via} (a shell alias)` }]
      : [{ kind: 'code', text: `git ${value.value}`, dynamic: value.dynamic, via: `${via} (a git alias)` }];
  }
  if (/^protocol\.(ext\.)?allow$/.test(key) && (value.dynamic || /^always$/i.test(value.value)))
    return opaque(`${via} lets ext:: URLs in config and submodules run commands that cannot be checked here`);
  if (!COMMAND_KEYS.test(key)) return [];
  if (!value.dynamic && /^(true|false|yes|no|on|off|0|1)$/i.test(value.value)) return [];
  return [{ kind: 'code', text: value.value.replace(/^!/, ''), dynamic: value.dynamic, via }];
}

const COMMAND_OPTIONS =
  /^(--exec|--upload-pack|--receive-pack|--extcmd|--open-files-in-pager|--tree-filter|--index-filter|--msg-filter|--env-filter|--commit-filter|--parent-filter|--tag-name-filter)(?:=(.*))?$/s;

function subcommandSteps(cmd: Cmd, sub: string, rest: readonly Arg[]): Step[] {
  const steps: Step[] = [];
  rest.forEach((a, i) => {
    const m = COMMAND_OPTIONS.exec(a.value);
    const short =
      (/^(rebase|difftool)$/.test(sub) && a.value === '-x') ||
      (/^(clone|fetch|pull|ls-remote)$/.test(sub) && a.value === '-u');
    // `ext::<command>` remote URLs run the command (`%` escapes: `% ` is a space inside one word).
    if (a.value.startsWith('ext::'))
      steps.push({
        kind: 'code',
        text: a.value.slice(5).replace(/% /g, ' ').replace(/%%/g, '%'),
        dynamic: a.dynamic,
        via: 'git ext:: URL',
      });
    if (!m && !short) return;
    const value = m?.[2] !== undefined ? { ...a, value: m[2] } : rest[i + 1];
    if (value)
      steps.push({ kind: 'code', text: value.value, dynamic: value.dynamic, via: `git ${sub} ${m?.[1] ?? a.value}` });
  });
  if (sub === 'submodule') {
    const at = rest.findIndex((a) => a.value === 'foreach');
    const body = at < 0 ? [] : rest.slice(at + 1).filter((a) => !/^(--recursive|-q|--quiet)$/.test(a.value));
    if (body.length > 0)
      steps.push({
        kind: 'code',
        text: body.map((a) => a.value).join(' '),
        dynamic: body.some((a) => a.dynamic),
        via: 'git submodule foreach',
      });
  }
  if (sub === 'bisect' && rest[0]?.value === 'run') steps.push(...inner({ ...cmd, args: rest.slice(1) }, 0));
  if (sub === 'config') {
    const words = rest.filter((a) => a.dynamic || !a.value.startsWith('-'));
    const [key, value] = words[0]?.value === 'set' ? words.slice(1) : words;
    if (key && value) steps.push(...gitConfigSteps(key.value.toLowerCase(), value, `git config ${key.value}`));
  }
  return steps;
}

export function gitSteps(cmd: Cmd): Step[] {
  const call = readGit(cmd);
  if (!call) return [];
  const steps = call.configs.flatMap(({ key, value }) => gitConfigSteps(key, value, `git -c ${key}`));
  if (call.execPath)
    steps.push(...opaque("git --exec-path runs git commands from a directory of the caller's choosing"));
  if (call.sub) steps.push(...subcommandSteps(cmd, call.sub, call.rest));
  return steps;
}
