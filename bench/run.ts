// `npm run bench`: agent-collab's goal figures, each measured side by side with its baseline in one run.
//   startup  `agent-collab --version` ≤ 2× `node -e 0`
//   tui      first frame ≤ 3× `node -e 0`; key → frame p95 < 50 ms; peak RSS < 200 MB
//   loop     the real CLIs with 2 s model replies: agent-collab's wall time ≤ 1.05× the same CLI calls run bare
//   memory   a stand-in codex printing 2×50 MB (1 MB lines, or one 50 MB line per turn) to a slow --json reader:
//            agent-collab's peak RSS < 300 MB
// Options: --only startup|tui|loop|memory (repeatable), --check (exit 1 when a goal is missed).
import os from 'node:os';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { memoryLines } from './memory.js';
import { realCliLines } from './real-cli.js';
import { startupLines } from './startup.js';
import { tuiBenchLines } from './tui.js';

const SECTIONS: Record<string, () => string[] | Promise<string[]>> = {
  startup: startupLines,
  tui: tuiBenchLines,
  // 6 pairs with 2 s replies (~45 s each) keep the whole bench near 6 min; an even count lets each side go first equally often
  loop: () => realCliLines({ instantPairs: 2, slowPairs: 6, latencyMs: 2000 }),
  memory: memoryLines,
};

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { only: { type: 'string', multiple: true }, check: { type: 'boolean' } },
    strict: true,
  });
  const only = values.only ?? Object.keys(SECTIONS);
  for (const name of only)
    if (!(name in SECTIONS)) throw new Error(`--only ${name}: not one of ${Object.keys(SECTIONS).join(', ')}`);

  const began = performance.now();
  const say = (line = ''): void => void process.stdout.write(`${line}\n`);
  say(`agent-collab bench, ${new Date().toISOString()}`);
  say(
    `node ${process.version}, ${process.platform}/${process.arch}, ${os.cpus().length} CPU(s), load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const goals: string[] = [];
  for (const name of only) {
    say();
    for (const line of await SECTIONS[name]!()) {
      say(line);
      if (/ (PASS|FAIL)$/.test(line)) goals.push(line);
    }
  }
  say();
  say('goals:');
  for (const line of goals) say(`  ${line}`);
  say(
    `bench time: ${((performance.now() - began) / 1000).toFixed(1)} s, load average now ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  return values.check && goals.some((l) => l.endsWith(' FAIL')) ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 2;
  },
);
