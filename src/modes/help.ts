import { packageInfo } from '../package-root.js';
import { decideHelpLines } from './decisions.js';

function readVersion(): string {
  try {
    return packageInfo().version;
  } catch {
    return '0.0.0';
  }
}

export const VERSION = readVersion();

const DECIDE_LINES = decideHelpLines()
  .map((line) => `${' '.repeat(29)}${line}`)
  .join('\n');

export const HELP = `agent-collab ${VERSION} — a planner agent and a reviewer agent working as a team in your git repo

Usage:
  agent-collab                                 open the terminal UI here (state the goal, watch and decide;
                                               an unfinished run is offered for resuming)
  agent-collab run --goal "<goal>" [options]   run the workflow without a terminal UI
  agent-collab run --resume [options]          continue the unfinished run in this repo
  agent-collab --worktree [name]               the terminal UI in a new worktree (see --worktree below)
  agent-collab ls [--json] [-C dir]            the runs in this repo's worktrees: phase, steps, cost, path
  agent-collab clean [--yes] [-C dir]          remove the worktrees of finished runs (their branches stay);
                                               without --yes it lists them and asks
  agent-collab queue [--parallel N] [--auto] [--auto-approve] [--json] [-C dir]
                                               run the instructions in .agent-collab/inbox/*.md (priority,
                                               then name); reports in .agent-collab/reports/ (user guide)
  agent-collab demo [--json] [--keep]          watch the whole workflow on scripted fake agents (no API keys)
  agent-collab doctor [-C dir]                 check the CLIs, git, the work dir and the config; exit 1 on a problem
  agent-collab policy check '<command>' [--json] [-C dir]
                                               how the [safety] rules here treat a shell command:
                                               exit 0 allow, 1 confirm, 2 block (2 also for a config error)
  agent-collab --help | --version

Options for run:
  -g, --goal <text>          what you want done (required unless --resume)
      --goal-file <file>     read the goal from <file> ("-": stdin) instead, e.g. for a long goal
      --auto                 auto mode: rounds run without waiting for a go
      --auto-approve         execute the plan as soon as the reviewer approves it
      --max-iterations <n>   review rounds before you are asked to decide (default 5)
      --resume               continue an unfinished run
      --fresh                archive an unfinished run to .agent-collab/history/ and start over
      --decide <choice>      when the run waits for you (the hint it prints names the choices that apply):
${DECIDE_LINES}
      --answer <text>        answer the question an agent asked
      --allow-cmd <prefix>   allow commands that need confirmation ([safety] require_confirm_for) when they
                             start with <prefix>, e.g. --allow-cmd "git push origin"; repeatable. Blocked
                             commands are always denied in a run without the UI
      --allow-detached       commit the steps onto a detached HEAD (refused without it; also \`agent-collab
                             --allow-detached\` for the UI)
      --json                 print one JSON event per line (NDJSON) on stdout
      --worktree [name]      run in a new git worktree <repo>-agent-collab/<name> on a new branch
                             agent-collab/<name> (name: from the goal when not given); your checkout is not
                             touched, and several runs of one repo can go at once
  -C, --cwd <dir>            run in <dir> instead of the current directory

Without --auto, each invocation lets one agent round through, as one go does in the UI.

Exit codes:
  0    done (or nothing left to do)
  2    bad input: flags, config, files; a repo mid-rebase/merge/cherry-pick/revert/bisect, on a detached HEAD
       or without commits
  3    a person is needed: a go, an arbitration, a question, an unfinished run to resume or archive
  4    an agent failed
  130  interrupted (Ctrl+C / SIGTERM): agents stopped, state saved; continue with --resume

Files live in .agent-collab/: state.json, plan.md, comments.md, log.md, debug.log, history/.
Configuration: .agent-collab/config.toml over ~/.config/agent-collab/config.toml over built-in defaults.
`;
