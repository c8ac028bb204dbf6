// Rules that are always on, whatever `[safety]` says: a user's own lists add to them, never take them away.
// Each has a short name, shown as the rule in `policy check` and in the hold dialog.
import { discardsWork } from './git-discards.js';
import { readGit, readGitArgs, type GitCall } from './git.js';
import { normalizePosix, type Match } from './match.js';
import { programName } from './programs.js';
import { systemWide } from './system-wide.js';
import type { Cmd, WriteTarget } from './types.js';

export interface BuiltInRule {
  name: string;
  decision: 'block' | 'confirm';
  /** Why, in a few words: "it rewrites or deletes history on a remote". */
  explain: string;
  command?: (cmd: Cmd) => Match;
  write?: (write: WriteTarget) => boolean;
}

// --- force push ------------------------------------------------------------------------------------------
const PUSH_LONG = [
  'force',
  'force-with-lease',
  'force-if-includes',
  'mirror',
  'delete',
  'prune',
  'all',
  'branches',
  'tags',
  'follow-tags',
  'dry-run',
  'porcelain',
  'verbose',
  'quiet',
  'progress',
  'verify',
  'set-upstream',
  'signed',
  'atomic',
  'thin',
  'ipv4',
  'ipv6',
  'recurse-submodules',
  'repo',
  'receive-pack',
  'exec',
  'push-option',
];
const PUSH_REWRITES = ['force', 'force-with-lease', 'force-if-includes', 'mirror', 'delete', 'prune'];

/** `-c remote.origin.mirror=true` or `-c remote.origin.push=+main` make a plain `git push` a forced one. */
function pushConfig(git: GitCall): Match {
  let match: Match = 'no';
  for (const { key, value } of git.configs) {
    const forces = /^remote\..+\.mirror$/.test(key)
      ? /^(true|yes|on|1)$/i.test(value.value)
      : /^remote\..+\.push$/.test(key) && /^[+:]/.test(value.value);
    if (forces) return 'yes';
    if (value.dynamic && /^remote\..+\.(mirror|push)$/.test(key)) match = 'maybe';
  }
  return match;
}

/** Config files git is pointed at (`-c include.path=./x`) can set `remote.<name>.mirror`: a push then deletes. */
const INCLUDES = /^(include\.path|includeif\..+\.path)$/;

/** `git config remote.origin.mirror true` makes every later plain push a mirror push. */
function storesForcingConfig(git: GitCall): Match {
  const words = git.rest.filter((a) => a.dynamic || !a.value.startsWith('-'));
  const [key, value] = words[0]?.value === 'set' ? words.slice(1) : words;
  if (!key || !value) return 'no';
  const k = key.value.toLowerCase();
  if (/^remote\..+\.mirror$/.test(k))
    return value.dynamic ? 'maybe' : /^(true|yes|on|1)$/i.test(value.value) ? 'yes' : 'no';
  if (/^remote\..+\.push$/.test(k)) return value.dynamic ? 'maybe' : /^[+:]/.test(value.value) ? 'yes' : 'no';
  return key.dynamic ? 'maybe' : 'no';
}

function forcePush(git: GitCall): Match {
  if (git.unknown) return 'maybe';
  if (git.sub === 'config') return storesForcingConfig(git);
  if (git.sub !== 'push' && git.sub !== 'send-pack') return 'no';
  if (git.gitDir || git.configs.some((c) => INCLUDES.test(c.key))) return 'yes';
  const args = readGitArgs(git.rest, ['-o', '--push-option', '--repo', '--receive-pack', '--exec'], PUSH_LONG);
  if (PUSH_REWRITES.some((o) => args.long.has(o)) || args.short.has('f') || args.short.has('d')) return 'yes';
  // The first operand is the remote; the rest are refspecs: `+main` forces, `:main` deletes. A computed
  // refspec with a fixed `+` or `:` in front (`+$BRANCH`) forces or deletes whatever it expands to.
  if (args.operands.slice(1).some((r) => /^[+:]/.test(r.value))) return 'yes';
  const config = pushConfig(git);
  if (config === 'yes') return 'yes';
  return args.computed || args.operands.some((r) => r.dynamic) ? 'maybe' : config;
}

// --- raw devices and file systems ------------------------------------------------------------------------
/** Devices that are written to all the time and harm nothing. */
const HARMLESS_DEVICE =
  /^\/dev\/(null|zero|full|random|urandom|stdin|stdout|stderr|tty|fd\/\d+|pts\/\d+|shm\/.*|mqueue\/.*)$/;

const FORMATS = /^(mkfs(\..+)?|mke2fs|mkswap|mkdosfs|mkntfs|mkexfatfs|mkfatfs|wipefs|cfdisk|blkdiscard)$/;
/** Partitioners: listing or printing the table is harmless, anything else writes it. */
const PARTITIONERS: Readonly<Record<string, RegExp>> = {
  fdisk: /^(-l|--list|-V|--version|-h|--help)$/,
  sfdisk: /^(-l|--list|-d|--dump|-J|--json|-s|--show-size|-V|--version|-h|--help)$/,
  parted: /^(-l|--list|-v|--version|-h|--help)$/,
  gdisk: /^(-l|-V|-h)$/,
  sgdisk: /^(-p|--print|-i|--info|-V|--version|-\?|--help)$/,
};
const DISK_SUBCOMMANDS: Readonly<Record<string, RegExp>> = {
  cryptsetup: /^(luksFormat|erase|luksErase|reencrypt)$/,
  mdadm: /^(--create|-C|--zero-superblock)$/,
  zpool: /^(destroy|create|labelclear)$/,
  zfs: /^destroy$/,
  nvme: /^(format|sanitize)$/,
  hdparm: /^(--security-erase|--security-erase-enhanced|--trim-sector-ranges)$/,
  badblocks: /^-\w*w/,
  flashrom: /^(-w|--write|-E|--erase)$/,
  pvremove: /./,
  vgremove: /./,
  lvremove: /./,
  sg_format: /./,
};

function rawDisk(cmd: Cmd): Match {
  const program = programName(cmd.args[0]!.value);
  const rest = cmd.args.slice(1);
  if (FORMATS.test(program)) return 'yes';
  const listing = PARTITIONERS[program];
  if (listing) {
    if (rest.some((a) => listing.test(a.value)) || (program === 'parted' && rest.some((a) => a.value === 'print')))
      return 'no';
    return 'yes';
  }
  const sub = DISK_SUBCOMMANDS[program];
  return sub && rest.some((a) => sub.test(a.value)) ? 'yes' : 'no';
}

function rawDeviceWrite(write: WriteTarget): boolean {
  const fixed = write.dynamic ? write.target.split(/[$`*?[{]/)[0]! : write.target;
  if (write.dynamic && fixed.length < '/dev/'.length) return false;
  const target = normalizePosix(fixed);
  return target.startsWith('/dev/') && !(HARMLESS_DEVICE.test(target) && !write.dynamic);
}

export const BUILT_IN_RULES: readonly BuiltInRule[] = [
  {
    name: 'force push',
    decision: 'block',
    explain: 'it rewrites or deletes history on a remote',
    command: (cmd) => {
      const git = readGit(cmd);
      return git ? forcePush(git) : 'no';
    },
  },
  {
    name: 'raw disk',
    decision: 'block',
    explain: 'it writes a disk device or a file system directly',
    command: rawDisk,
    write: rawDeviceWrite,
  },
  {
    name: 'discards work',
    decision: 'confirm',
    explain: 'it throws away uncommitted changes or history',
    command: (cmd) => {
      const git = readGit(cmd);
      if (git) return discardsWork(git);
      return programName(cmd.args[0]!.value) === 'git-filter-repo' ? 'yes' : 'no';
    },
  },
  {
    name: 'system-wide',
    decision: 'confirm',
    explain: 'it mounts or unmounts file systems, stops the machine, or signals every process',
    command: systemWide,
  },
];
