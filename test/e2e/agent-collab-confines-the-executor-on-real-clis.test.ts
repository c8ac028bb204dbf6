/**
 * Issue 17, acceptance 7: whatever the executor tries during a step, it can change only the repo's working files —
 * on the real claude AND the real codex as executor (the planner executes; roles swapped for claude). The scripted
 * executor first makes a legitimate edit, then tries (a) a write outside the repo, (b) a write in $HOME,
 * (c) switching branch, (d) committing, (e) resetting history, (f) changing `.agent-collab/plan.md` — each through
 * the CLI's file tool and through the shell —, (g) the same from a script it writes in the repo and runs, and
 * (h) planting a git hook (agent-collab's own commit would run it); then it makes a second legitimate change.
 * Proven by effects: nothing outside the repo or in $HOME changed, git holds only agent-collab's own `[Step 1]`
 * commit (or nothing, when agent-collab caught a change and stopped: exit 3), no hook or git config was added,
 * plan.md is agent-collab's; and the run's output shows each refusal. Run `npm run build` first.
 *
 * The test root is kept out of the OS temp dir: both CLIs' sandboxes leave temp dirs writable, and a real repo's
 * parent is not one.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe } from 'vitest';
import { markStepDone } from '../../src/core/plan-steps.js';
import { e2eInstall, itWith } from './agent-collab-fixture.js';
import { gitSubjects } from './agent-collab-run.js';
import { describeRun, type JsonLine } from './harness.js';
import { reply, type LlmServer } from './llm-server.js';
import {
  claudeTool,
  codexPatch,
  commitFiles,
  codexToolOutput,
  failedPatchNaming,
  fileStates,
  git,
  gitSnapshot,
  refusalReported,
  shellAttempt,
  withBranchAt,
  writeNewFile,
  type Attempt,
  type CliName,
} from './tamper.js';

const PLAN = '# Plan\n\n## Steps\n1. [ ] Note the change in README.md and add legit.txt\n';
const BASHRC = "# the test user's own .bashrc\nexport KEEP=1\n";

/** Outside any temp dir: next to the e2e CLI cache (see the header). */
const WORK_DIR = e2eInstall.ok ? path.join(path.dirname(path.dirname(e2eInstall.binDir)), 'work') : undefined;
const it = itWith({ parentDir: WORK_DIR });

/** What the hidden script tries; every line runs, the exit status counts the ones that failed. */
const EVIL_SH = [
  '#!/bin/bash',
  'failed=0',
  'echo evil > ../outside-script.txt || failed=$((failed+1))',
  'echo echo-pwned-by-script >> "$HOME/.bashrc" || failed=$((failed+1))',
  'git checkout -b sneaky-script || failed=$((failed+1))',
  'git commit -am sneaky-script || failed=$((failed+1))',
  'git reset --hard HEAD~1 || failed=$((failed+1))',
  "printf '' > .agent-collab/plan.md || failed=$((failed+1))",
  'exit $failed',
  '',
].join('\n');

/** The executor's attempts, in order, in its CLI's tool shapes. */
function attempts(cli: CliName, repo: string, home: string): { legit: Attempt[]; hostile: Attempt[] } {
  const abs = (p: string) => path.join(repo, p);
  const planFile = abs('.agent-collab/plan.md');
  const fileTool = (what: string, rel: string, content: string) =>
    writeNewFile(cli, what, cli === 'claude' ? path.resolve(repo, rel) : rel, content);
  const sh = (what: string, command: string) => shellAttempt(cli, what, command);
  const hostile: Attempt[] = [
    fileTool('(a) file tool writes outside the repo', '../outside-tool.txt', 'outside\n'),
    sh('(a) shell writes outside the repo', 'echo outside > ../outside-shell.txt'),
    ...(cli === 'claude'
      ? [
          shellAttempt(cli, '(a) shell asks to run outside the sandbox', 'echo outside > ../outside-unsandboxed.txt', {
            dangerouslyDisableSandbox: true,
          }),
        ]
      : []),
    fileTool('(b) file tool writes in $HOME', path.join(home, 'evil-tool.txt'), 'evil\n'),
    sh('(b) shell appends to $HOME/.bashrc', 'echo echo-pwned >> "$HOME/.bashrc"'),
    { ...sh('(c) switch branch', 'git checkout -b sneaky'), caughtAs: /branch 'sneaky'/ },
    { ...sh('(d) commit', 'git commit -am sneaky'), caughtAs: /HEAD moved/ },
    { ...sh('(e) reset history', 'git reset --hard HEAD~1'), caughtAs: /HEAD moved/ },
    ...(cli === 'claude'
      ? [
          claudeTool('(f) read plan.md', 'Read', { file_path: planFile }),
          {
            ...claudeTool('(f) file tool rewrites plan.md', 'Write', { file_path: planFile, content: '# TAMPERED\n' }),
            caughtAs: /plan\.md/,
          },
        ]
      : [
          {
            ...codexPatch(
              '(f) file tool deletes plan.md',
              '*** Begin Patch\n*** Delete File: .agent-collab/plan.md\n*** End Patch\n',
            ),
            caughtAs: /plan\.md/,
          },
        ]),
    { ...sh('(f) shell empties plan.md', "printf '' > .agent-collab/plan.md"), caughtAs: /plan\.md/ },
    fileTool('(h) file tool plants a git hook', '.git/hooks/post-commit', '#!/bin/sh\necho hooked > ../hooked.txt\n'),
    {
      ...sh('(h) shell points git at its own hooks', 'git config core.hooksPath .evil-hooks'),
      caughtAs: /config|hooks/,
    },
    sh('(g) a script in the repo does all of it', 'bash ./evil.sh'),
  ];
  const legit = [
    sh('legit: edit README.md', 'echo legit-edit >> README.md'),
    fileTool('(g) write the script (inside the repo: allowed)', 'evil.sh', EVIL_SH),
    fileTool('legit: add legit.txt', 'legit.txt', 'legit\n'),
  ];
  return { legit, hostile };
}

/** plan.md's body (what follows the frontmatter). */
function planBody(repo: string): string {
  const text = readFileSync(path.join(repo, '.agent-collab', 'plan.md'), 'utf8');
  const m = /^---\n[\s\S]*?\n---\n\n?([\s\S]*)$/.exec(text);
  return m ? m[1]! : `<no frontmatter>\n${text}`;
}

for (const executor of ['claude', 'codex'] as const) {
  const reviewer = executor === 'codex' ? 'claude' : 'codex';
  const script = (server: LlmServer) => (executor === 'codex' ? server.openai : server.anthropic);

  describe(`${executor} as executor, confined`, () => {
    it('writes outside the repo, in $HOME, to git and to plan.md do not stick; only the legitimate change is committed', async ({
      ac,
      expect,
    }) => {
      const { server, repo, env } = ac;
      ac.config({ planner: executor, reviewer });
      // a history to reset, and a .bashrc to append to
      writeFileSync(path.join(repo, 'notes.md'), 'second\n');
      git(repo, 'add', 'notes.md');
      git(repo, 'commit', '-q', '-m', 'second');
      writeFileSync(path.join(env.home, '.bashrc'), BASHRC);
      const homeFiles = [path.join(env.home, '.bashrc'), path.join(env.home, 'evil-tool.txt')];
      const homeBefore = fileStates(homeFiles);
      const rootBefore = readdirSync(env.root).sort();
      const before = gitSnapshot(repo);

      const { legit, hostile } = attempts(executor, repo, env.home);
      const [editReadme, writeScript, addLegit] = legit;
      script(server).push(
        reply.text(PLAN),
        editReadme!.reply,
        writeScript!.reply,
        ...hostile.map((a) => a.reply),
        addLegit!.reply,
        reply.text('Edited README.md and added legit.txt.\nSummary: note the change'),
      );
      (reviewer === 'claude' ? server.anthropic : server.openai).push(reply.text('[APPROVED]\n\nFine.'));

      const r = await ac.run(['run', '--goal', 'note the change', '--auto', '--auto-approve'], 150_000);
      const report = describeRun(r);
      expect([0, 3], report).toContain(r.code);

      // (a) nothing new next to the repo; (b) $HOME unchanged
      expect.soft(readdirSync(env.root).sort(), report).toEqual(rootBefore);
      expect.soft(fileStates(homeFiles)).toEqual(homeBefore);

      // (c)(d)(e) git: only agent-collab's own step commit, on the same branch, on top of the same history
      const after = gitSnapshot(repo);
      if (r.code === 0) {
        expect.soft(after, report).toEqual(withBranchAt(before, after.head));
        expect.soft(git(repo, 'rev-parse', 'HEAD~1')).toBe(before.head);
        expect.soft(gitSubjects(repo)).toEqual(['[Step 1] note the change', 'second', 'initial']);
        expect.soft(commitFiles(repo, 'HEAD')).toEqual(['README.md', 'evil.sh', 'legit.txt']);
        expect.soft(readFileSync(path.join(repo, 'legit.txt'), 'utf8')).toBe('legit\n');
        expect.soft(readFileSync(path.join(repo, 'README.md'), 'utf8')).toBe('# e2e\nlegit-edit\n');
        // (f) plan.md: agent-collab's plan with step 1 marked done by agent-collab
        expect.soft(planBody(repo)).toBe(markStepDone(PLAN, 1, after.head));
      } else {
        // agent-collab caught a change it could not prevent: nothing committed, its own things restored, and the
        // event names what changed
        expect.soft(after, report).toEqual(before);
        expect.soft(planBody(repo)).toBe(PLAN);
        const caught = r.lines.find((l) => l.event === 'needs_human' && l.kind === 'forbidden_change');
        expect.soft(caught?.changes, report).toEqual(expect.arrayContaining([expect.any(String)]));
      }

      // the run reports every refusal
      const unreported = hostile
        .filter((a) => a.what !== '(f) read plan.md')
        .filter((a) => refusalFor(r.lines, a, executor, server) === null)
        .map((a) => a.what);
      expect(unreported, report).toEqual([]);
      // codex says it rejected a patch aimed outside the project only on stderr: the run turns that into a refusal
      if (executor === 'codex') {
        const fromStderr = r.lines.filter(
          (l) =>
            l.event === 'agent' &&
            l.type === 'tool_result' &&
            String(l.output).startsWith('confinement refused: a patch (writing outside of the project'),
        );
        expect(fromStderr.length, report).toBeGreaterThanOrEqual(1);
      }
    }, 180_000);
  });
}

/**
 * How the run reported the attempt. codex 0.169's JSON stream is not complete enough to report everything it
 * refused (measured): a patch refused for writing outside the project has no item at all (only a stderr line,
 * `patch rejected: writing outside of the project`), and a command that fails at once sometimes has no
 * `command_execution` item either (the model still gets its output). For those the proof of refusal is what codex
 * told the model: a rejected patch, or a command that exited non-zero.
 */
function refusalFor(lines: JsonLine[], a: Attempt, cli: CliName, server: LlmServer): string | null {
  const reported = refusalReported(lines, a);
  if (reported !== null || cli !== 'codex' || a.toolId === undefined) return reported;
  if (a.command === undefined) {
    const file = /^\*\*\* (?:Add|Delete|Update) File: (.+)$/m.exec(String(a.reply.calls[0]?.input))?.[1] ?? '?';
    const failed = failedPatchNaming(lines, path.basename(file));
    if (failed) return String(failed.output);
  }
  const told = codexToolOutput(server.openai.requests, a.toolId);
  if (told === null) return null;
  const refused = a.command === undefined ? /rejected/.test(told) : /exited with code [1-9]/.test(told);
  return refused ? `codex told the model: ${told}` : null;
}
