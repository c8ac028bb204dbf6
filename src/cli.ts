#!/usr/bin/env node
// Entry point: parses the command line and hands over to a mode. Every failure a user can cause ends here
// as one line on stderr and a documented exit code, never a stack trace.
import { readFileSync } from 'node:fs';
import { statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { EXIT, UserError } from './core/errors.js';
import { neutralizeControls } from './core/terminal-text.js';
import { HELP, VERSION } from './modes/help.js';
import { asUserError } from './persistence/fs-errors.js';
import { redactText, secretEnvValues } from './core/redact.js';

// A reader that goes away (`agent-collab run --json | head`) is not an error worth a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
  });
}

const COMMON = {
  json: { type: 'boolean' },
  auto: { type: 'boolean' },
  'auto-approve': { type: 'boolean' },
  'max-iterations': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const RUN_OPTIONS = {
  ...COMMON,
  goal: { type: 'string', short: 'g' },
  'goal-file': { type: 'string' },
  resume: { type: 'boolean' },
  fresh: { type: 'boolean' },
  cwd: { type: 'string', short: 'C' },
  decide: { type: 'string' },
  answer: { type: 'string' },
  'allow-cmd': { type: 'string', multiple: true },
  'allow-detached': { type: 'boolean' },
} as const;

const POLICY_OPTIONS = { json: COMMON.json, help: COMMON.help, cwd: RUN_OPTIONS.cwd } as const;

const QUEUE_OPTIONS = { ...COMMON, cwd: RUN_OPTIONS.cwd, parallel: { type: 'string' } } as const;

const DEMO_OPTIONS = { json: COMMON.json, help: COMMON.help, keep: { type: 'boolean' } } as const;

function parseMaxIterations(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > 100)
    throw new UserError(`--max-iterations must be a whole number from 1 to 100 (got "${text}")`);
  return n;
}

function parseParallel(text: string | undefined): number {
  const n = Number(text ?? '1');
  if (!Number.isInteger(n) || n < 1 || n > 16)
    throw new UserError(`--parallel must be a whole number from 1 to 16 (got "${text ?? ''}")`);
  return n;
}

/**
 * The goal from `--goal` or `--goal-file <file>` ("-": stdin). A file has no size limit, where an argument stops at
 * 128 KB (the kernel's limit for one argument).
 */
function goalOf(goal: string | undefined, file: string | undefined): string | undefined {
  if (file === undefined) return goal;
  if (goal !== undefined) throw new UserError('--goal and --goal-file cannot be used together; pick one');
  try {
    return readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new UserError(`cannot read the goal from ${file === '-' ? 'stdin' : file} (${reason}); check the path`);
  }
}

function parsed<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    const msg = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new UserError(`${msg}; see \`agent-collab --help\``);
  }
}

type CommandOptions = NonNullable<ParseArgsConfig['options']>;

/**
 * A command's options, parsed strictly (a mistake is one line pointing to --help); null when `--help` asked for the
 * help, which is then printed: the caller returns EXIT.done.
 */
function commandOptions<O extends CommandOptions>(
  args: string[],
  options: O,
): ReturnType<typeof parseArgs<{ args: string[]; options: O; strict: true }>>['values'] | null {
  const { values } = parsed(() => parseArgs({ args, options, strict: true }));
  if ((values as { help?: unknown }).help) {
    process.stdout.write(HELP);
    return null;
  }
  return values;
}

/** `-C <dir>` (or the current directory) must be an existing directory: said as such, not as a missing git. */
function workingDirectory(dir: string | undefined): string {
  if (dir === undefined) return process.cwd();
  const abs = path.resolve(dir);
  let isDir: boolean;
  try {
    isDir = statSync(abs).isDirectory();
  } catch {
    throw new UserError(`directory ${abs} does not exist; pass an existing directory to -C`);
  }
  if (!isDir) throw new UserError(`${abs} is not a directory; pass a directory to -C`);
  return abs;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === '--version' || command === '-v' || command === 'version') {
    process.stdout.write(`${VERSION}\n`);
    return EXIT.done;
  }
  // NO_COLOR (https://no-color.org) means no colour, not no styling: the TUI drops colours itself (ui/styled.tsx)
  // and keeps bold, dim, inverse and underline, so its cursor and selection stay visible.
  if (command?.startsWith('--worktree')) return startUiInWorktree(argv);
  const detachedUi = command === '--allow-detached' && rest.length === 0;
  if ((command === undefined || detachedUi) && process.stdin.isTTY && process.stdout.isTTY) {
    const { runInteractive } = await import('./modes/interactive-start.js');
    return runInteractive({ cwd: process.cwd(), allowDetached: detachedUi });
  }
  if (detachedUi)
    throw new UserError(
      '--allow-detached without a command starts the UI, which needs a terminal; use `agent-collab run --allow-detached …`',
    );
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(HELP);
    return EXIT.done;
  }
  switch (command) {
    case 'run': {
      const { takeWorktreeFlag, startInWorktree } = await import('./modes/worktrees.js');
      const { args, worktree } = takeWorktreeFlag(rest);
      const values = commandOptions(args, RUN_OPTIONS);
      if (!values) return EXIT.done;
      if (values.resume && values.fresh) throw new UserError('--resume and --fresh cannot be used together; pick one');
      const goal = goalOf(values.goal, values['goal-file']);
      let cwd = workingDirectory(values.cwd);
      if (worktree) {
        if (values.resume || goal === undefined)
          throw new UserError(
            '--worktree starts a new run in a new worktree: give it a --goal (to continue a run there, use `agent-collab run --resume -C <its path>`)',
          );
        cwd = (await startInWorktree(cwd, worktree, goal)).path;
      }
      const { runHeadless } = await import('./modes/headless.js');
      const { parseDecision } = await import('./modes/decisions.js');
      return runHeadless({
        cwd,
        goal,
        auto: values.auto ?? false,
        autoApprove: values['auto-approve'],
        json: values.json ?? false,
        maxIterations: parseMaxIterations(values['max-iterations']),
        resume: values.resume ? 'resume' : values.fresh ? 'fresh' : 'ask',
        handleSignals: true,
        decision: values.decide === undefined ? undefined : parseDecision(values.decide),
        answer: values.answer,
        allowCmd: values['allow-cmd'] ?? [],
        allowDetached: values['allow-detached'] ?? false,
      });
    }
    case 'queue': {
      const values = commandOptions(rest, QUEUE_OPTIONS);
      if (!values) return EXIT.done;
      const { runQueueMode } = await import('./modes/queue.js');
      const { createRunWorktree } = await import('./adapters/git/run-worktree.js');
      return runQueueMode({
        cwd: workingDirectory(values.cwd),
        parallel: parseParallel(values.parallel),
        json: values.json ?? false,
        run: {
          auto: values.auto ?? false,
          autoApprove: values['auto-approve'],
          maxIterations: parseMaxIterations(values['max-iterations']),
        },
        createWorktree: createRunWorktree,
        handleSignals: true,
      });
    }
    case 'ls':
    case 'clean': {
      const options = { json: COMMON.json, help: COMMON.help, cwd: RUN_OPTIONS.cwd, yes: { type: 'boolean' } } as const;
      const values = commandOptions(rest, options);
      if (!values) return EXIT.done;
      const { runLs, runClean } = await import('./modes/worktrees.js');
      const cwd = workingDirectory(values.cwd);
      if (command === 'ls') return runLs({ cwd, json: values.json ?? false });
      return runClean({ cwd, yes: values.yes ?? false });
    }
    case 'demo': {
      const values = commandOptions(rest, DEMO_OPTIONS);
      if (!values) return EXIT.done;
      const { runDemo } = await import('./modes/demo.js');
      return runDemo({ json: values.json ?? false, keep: values.keep ?? false });
    }
    case 'doctor': {
      const values = commandOptions(rest, { help: COMMON.help, cwd: RUN_OPTIONS.cwd } as const);
      if (!values) return EXIT.done;
      const { runDoctor } = await import('./modes/doctor.js');
      return runDoctor({ cwd: workingDirectory(values.cwd) });
    }
    case 'policy': {
      const [sub, ...args] = rest;
      if (sub === '--help' || sub === '-h') {
        process.stdout.write(HELP);
        return EXIT.done;
      }
      if (sub !== 'check')
        throw new UserError(`unknown policy command "${sub ?? ''}"; use \`agent-collab policy check '<command>'\``);
      let values: { json?: boolean; help?: boolean; cwd?: string };
      let positionals: string[];
      try {
        ({ values, positionals } = parseArgs({ args, options: POLICY_OPTIONS, strict: true, allowPositionals: true }));
      } catch {
        throw new UserError(
          `"policy check ${args.join(' ')}" has an option it does not know; pass the command as one quoted argument, e.g. agent-collab policy check 'rm -rf build'`,
        );
      }
      if (values.help) {
        process.stdout.write(HELP);
        return EXIT.done;
      }
      if (positionals.length === 0)
        throw new UserError("policy check needs a command: agent-collab policy check '<command>'");
      const { runPolicyCheck } = await import('./modes/policy-check.js');
      return runPolicyCheck({
        command: positionals.join(' '),
        cwd: workingDirectory(values.cwd),
        json: values.json ?? false,
      });
    }
    default:
      throw new UserError(`unknown command "${command}"; see \`agent-collab --help\``);
  }
}

/** `agent-collab --worktree [name]`: the terminal UI in a new worktree (named by the time when no name is given). */
async function startUiInWorktree(argv: string[]): Promise<number> {
  const { takeWorktreeFlag, startInWorktree } = await import('./modes/worktrees.js');
  const { args, worktree } = takeWorktreeFlag(argv);
  const allowDetached = args.length === 1 && args[0] === '--allow-detached';
  if (args.length > 0 && !allowDetached)
    throw new UserError(
      `--worktree opens the UI and takes no ${args.join(' ')}; for a run without the UI use \`agent-collab run --worktree …\``,
    );
  if (!process.stdin.isTTY || !process.stdout.isTTY)
    throw new UserError(
      '--worktree without a command starts the UI, which needs a terminal; use `agent-collab run --worktree …`',
    );
  const wt = await startInWorktree(process.cwd(), worktree ?? {}, undefined);
  const { runInteractive } = await import('./modes/interactive-start.js');
  return runInteractive({ cwd: wt.path, allowDetached });
}

// The exit code is set, not forced: the process ends once stdout and stderr have passed on everything written to
// them (a slow reader still gets the last line).
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (thrown: unknown) => {
    // A permission problem, a read-only disk or a directory in a file's place is the person's to fix: exit 2.
    const err = asUserError(thrown);
    if (err instanceof UserError) {
      // Bad input is echoed in the line (a config value): redacted like every other output.
      const line = redactText(err.message, secretEnvValues(process.env));
      process.stderr.write(`agent-collab: ${neutralizeControls(line)}\n`);
      process.exitCode = err.exitCode;
      return;
    }
    const msg = err instanceof Error ? err.message : String(err);
    process.stderr.write(
      `agent-collab: internal error: ${msg.split('\n')[0]} (set AGENT_COLLAB_DEBUG=1 for details)\n`,
    );
    if (process.env.AGENT_COLLAB_DEBUG) process.stderr.write(`${err instanceof Error ? err.stack : ''}\n`);
    process.exitCode = 1;
  },
);
