// The bash client's probe, remembered across sessions. The probe (a real hook round trip through bash's /dev/tcp)
// tells whether a bash can run the client at all; a bash that passed it once passes it again, as long as it is the
// same program (path, inode, size, mtime) running the same client script. A session that finds its bash remembered
// hands out the bash client at once instead of making its first agent wait for the probe (~15 ms on a busy machine).
// Only passes are remembered; any doubt (changed file, unreadable record) means probing again.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface ProbeVerdicts {
  /** True when `bash` with this client `script` passed the probe before and nothing about either has changed. */
  passed(bash: string, script: string): boolean;
  /** Records a pass. Never throws: a verdict not written only means probing again next time. */
  rememberPass(bash: string, script: string): void;
}

type Record = { [bash: string]: string };

function identity(bash: string, script: string): string | null {
  try {
    const st = statSync(bash);
    const scriptHash = createHash('sha256').update(script).digest('hex').slice(0, 16);
    return `${st.dev}:${st.ino}:${st.size}:${Math.trunc(st.mtimeMs)}:${scriptHash}`;
  } catch {
    return null;
  }
}

function readRecord(file: string): Record {
  try {
    const data: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof data !== 'object' || data === null || Array.isArray(data)) return {};
    return Object.fromEntries(Object.entries(data).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return {};
  }
}

/** Verdicts kept in `file` (JSON: bash path → identity); null: nothing is remembered. */
export function probeVerdicts(file: string | null): ProbeVerdicts {
  if (file === null) return { passed: () => false, rememberPass: () => undefined };
  return {
    passed(bash, script) {
      const id = identity(bash, script);
      return id !== null && readRecord(file)[bash] === id;
    },
    rememberPass(bash, script) {
      const id = identity(bash, script);
      if (id === null) return;
      const tmp = `${file}.${process.pid}.tmp`;
      try {
        mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
        writeFileSync(tmp, `${JSON.stringify({ ...readRecord(file), [bash]: id })}\n`, { mode: 0o600 });
        renameSync(tmp, file);
      } catch {
        try {
          rmSync(tmp, { force: true });
        } catch {
          // the directory is not there or not one
        }
      }
    },
  };
}
