// Commands that change the whole machine rather than files in the project: mounting or unmounting file systems,
// and signalling every process (`kill -9 -1`, `killall5`). A person confirms them (a built-in confirm rule):
// a test may legitimately mount a tmpfs, but an agent should never do it unseen.
import type { Match } from './match.js';
import { programName } from './programs.js';
import type { Cmd } from './types.js';

/** `mount` with no operand, or only listing options, prints the mount table. */
const MOUNT_LISTING = /^(-l|--show-labels|-t|--types|-V|--version|-h|--help)$/;

function mount(cmd: Cmd): Match {
  const rest = cmd.args.slice(1);
  if (rest.some((a) => a.dynamic)) return 'yes';
  const other = rest.filter((a, i) => !MOUNT_LISTING.test(a.value) && !/^(-t|--types)$/.test(rest[i - 1]?.value ?? ''));
  return other.length > 0 ? 'yes' : 'no';
}

/** `kill -9 -1` (every process), `kill 0` (this process group), `kill 1` (init); a computed pid may be any of them. */
function kill(cmd: Cmd): Match {
  const rest = cmd.args.slice(1);
  let i = 0;
  if (rest[0] && /^-(s|n)$/.test(rest[0].value)) i = 2;
  else if (rest[0] && /^-(?!-$|1$|0$)/.test(rest[0].value) && !/^-l|^-L/.test(rest[0].value)) i = 1;
  else if (rest[0]?.value === '-l' || rest[0]?.value === '-L') return 'no';
  if (rest[i]?.value === '--') i++;
  const pids = rest.slice(i);
  if (pids.some((p) => !p.dynamic && /^(-1|0|-0|1)$/.test(p.value))) return 'yes';
  // A computed pid (`kill $PID`) is the everyday way to stop a server a script started: left to the rules.
  return 'no';
}

/** `pkill`/`killall` of everything: an empty or match-all pattern, or every process of a user. */
function killByName(cmd: Cmd): Match {
  const rest = cmd.args.slice(1);
  const patterns = rest.filter(
    (a, i) => !a.value.startsWith('-') && !/^-[ustgGPFU]$|^--(user|signal|uid)$/.test(rest[i - 1]?.value ?? ''),
  );
  if (patterns.length === 0) return rest.some((a) => /^(-u|--user|-U|--euid|-uid)$/.test(a.value)) ? 'yes' : 'no';
  return patterns.some((p) => !p.dynamic && /^(|\.|\.\*|\^|\$|\^\.\*\$?|\.\+)$/.test(p.value)) ? 'yes' : 'no';
}

export function systemWide(cmd: Cmd): Match {
  const program = programName(cmd.args[0]!.value);
  if (program === 'mount') return mount(cmd);
  if (/^(umount|umount2|swapoff|swapon|pivot_root|killall5|halt|poweroff|reboot|shutdown)$/.test(program)) return 'yes';
  if (program === 'kill') return kill(cmd);
  if (program === 'pkill' || program === 'killall') return killByName(cmd);
  return 'no';
}
