// Whether operating-system confinement works here: Linux, a bubblewrap that can actually build a sandbox (it may be
// installed but refused user namespaces), and socat (claude's sandbox needs it for its network proxy).
import { execa } from 'execa';
import { BWRAP, bwrapHardening } from './bwrap-args.js';

export const CONFINEMENT_INSTALL_HINT = 'apt-get install bubblewrap socat';
export const SANDBOX_OFF_HINT = '[safety] sandbox = "off"';

export type Confinement = { available: true } | { available: false; reason: string };

async function works(command: string, args: string[]): Promise<{ ok: boolean; why: string }> {
  try {
    const r = await execa(command, args, { reject: false, stdin: 'ignore', timeout: 10_000 });
    if (r.exitCode === 0) return { ok: true, why: '' };
    const err = (r.stderr || r.stdout).toString().trim().split('\n')[0] ?? '';
    const missing = (r as { code?: string }).code === 'ENOENT' || /ENOENT/.test(String(r.message));
    return { ok: false, why: missing ? 'not installed' : err || `exit code ${r.exitCode}` };
  } catch (err) {
    return { ok: false, why: (err as Error).message };
  }
}

/** Probes the machine; `reason` says what is missing, without the fix (see confinementError). */
export async function probeConfinement(platform: NodeJS.Platform = process.platform): Promise<Confinement> {
  if (platform !== 'linux')
    return { available: false, reason: `confinement needs Linux with bubblewrap; this system is ${platform}` };
  // The same box the agents get (a user namespace included), so a kernel that refuses one is found here.
  const bwrap = await works(BWRAP, ['--ro-bind', '/', '/', '--dev', '/dev', ...bwrapHardening(), '--', 'true']);
  if (!bwrap.ok)
    return {
      available: false,
      reason:
        bwrap.why === 'not installed'
          ? 'bubblewrap (bwrap) is not installed'
          : `bubblewrap (bwrap) cannot create a sandbox here (${bwrap.why})`,
    };
  const socat = await works('socat', ['-V']);
  if (!socat.ok) return { available: false, reason: "socat is not installed (claude's sandbox needs it)" };
  return { available: true };
}

/** The one line shown when a write turn cannot start confined. */
export function confinementError(reason: string): string {
  return (
    `cannot confine the agents' write turns: ${reason}. Install it (Debian/Ubuntu: ${CONFINEMENT_INSTALL_HINT}), ` +
    `or turn confinement off with ${SANDBOX_OFF_HINT} in .agent-collab/config.toml (not recommended)`
  );
}
