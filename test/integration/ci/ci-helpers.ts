// The example GitHub Actions workflow (examples/github-actions/agent-collab.yml), parsed, and its `run:` scripts run
// the way a runner runs them (`bash --noprofile --norc -eo pipefail`), with `agent-collab` on PATH being this build.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import matter from 'gray-matter';
import { BIN, runCli, runToEnd } from '../../helpers/cli.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const WORKFLOW = path.join(ROOT, 'examples/github-actions/agent-collab.yml');
export const CI_DOC = path.join(ROOT, 'docs/ci.md');

export interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
export interface Workflow {
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  concurrency: { group: string; 'cancel-in-progress': boolean };
  jobs: Record<string, { 'runs-on': string; 'timeout-minutes': number; env: Record<string, string>; steps: Step[] }>;
}

/** The workflow parsed by js-yaml (through gray-matter, a dependency already: its front matter is YAML). */
export function parseWorkflow(): Workflow {
  return matter(`---\n${readFileSync(WORKFLOW, 'utf8')}\n---\n`).data as Workflow;
}

export function stepNamed(wf: Workflow, name: string): Step {
  const step = wf.jobs.run!.steps.find((s) => s.name === name);
  if (!step?.run) throw new Error(`the workflow has no run step named "${name}"`);
  return step;
}

/** A temp dir with `agent-collab` (this build's bin) and, on request, a `gh` that records its arguments. */
export function ciBin(withGh: boolean): { dir: string; ghCalls: () => string[][]; cleanup: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ac-ci-bin-'));
  symlinkSync(BIN, path.join(dir, 'agent-collab'));
  const log = path.join(dir, 'gh-calls');
  if (withGh) {
    // One call per line, its arguments NUL-separated: `gh` as the runner has it, minus the network.
    writeFileSync(path.join(dir, 'gh'), `#!/bin/sh\nprintf '%s\\0' "$@" >> '${log}'\nprintf '\\n' >> '${log}'\n`);
    chmodSync(path.join(dir, 'gh'), 0o755);
  }
  return {
    dir,
    ghCalls: () => {
      let text = '';
      try {
        text = readFileSync(log, 'utf8');
      } catch {
        return [];
      }
      return text
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split('\0').slice(0, -1));
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The runner's per-job files: RUNNER_TEMP, GITHUB_OUTPUT, GITHUB_ENV. */
export function runnerFiles(): { temp: string; output: string; env: string; outputs: () => Record<string, string> } {
  const temp = mkdtempSync(path.join(os.tmpdir(), 'ac-ci-runner-'));
  mkdirSync(temp, { recursive: true });
  const output = path.join(temp, 'github-output');
  writeFileSync(output, '');
  const env = path.join(temp, 'github-env');
  writeFileSync(env, '');
  return {
    temp,
    output,
    env,
    outputs: () =>
      Object.fromEntries(
        readFileSync(output, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      ),
  };
}

/** Runs one step's script as a runner does; stdin is not a terminal (a pipe nobody writes to). */
export function runStep(
  script: string,
  opts: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runToEnd('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { ...opts, stdin: 'open' });
}

/**
 * The words after `agent-collab` in a script's commands (lines joined at `\`, up to a redirection), and the words
 * of `set --` lines that build its arguments: the flags the workflow hands agent-collab.
 */
export function agentCollabArgs(script: string): string[][] {
  const lines = script.replace(/\\\n/g, ' ').split('\n');
  const found: string[][] = [];
  for (const line of lines) {
    if (line.trim().startsWith('#')) continue;
    const words = line.trim().split(/\s+/);
    const at = words.indexOf('agent-collab');
    const set = words.findIndex((w, i) => w === 'set' && words[i + 1] === '--');
    const from = at >= 0 ? at + 1 : set >= 0 ? set + 2 : -1;
    if (from < 0 || words[from] === '--version') continue;
    const args: string[] = [];
    for (const w of words.slice(from)) {
      if (/^\d?[<>]/.test(w)) break; // a redirection ends the arguments
      const word = w.replace(/;$/, '');
      if (word !== '"$@"' && !(args.length === 0 && word === 'run')) args.push(word);
      if (word !== w) break; // `;` ends the command
    }
    found.push(args);
  }
  return found;
}

/** The built CLI as a runner starts it, stdin open (see StdinMode): its exit code, stdout's lines, and stderr. */
export async function runCliOpenStdin(
  args: string[],
  opts: { cwd: string; home: string },
): Promise<{ code: number | null; lines: string[]; stderr: string }> {
  const { code, stdout, stderr } = await runCli(args, { ...opts, stdin: 'open' }).done;
  return { code, lines: stdout.split('\n').filter(Boolean), stderr };
}
