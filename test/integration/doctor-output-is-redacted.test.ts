// `agent-collab doctor` is what a person pastes into a bug report: it prints a CLI's failing `--version` line and
// the base URL gemini is pointed at. A key in that line, or a password in that URL, is hidden like everywhere else.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempRepo } from '../helpers/repo.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

const KEY = `AIza${'SyD3k9Xw2Lm7Qr5Tz8Vb1Nc4Hj6Gf0Pe2Ab'}`;

describe('agent-collab doctor and secrets', () => {
  it('hides a key in a CLI’s error line and the password of the base URL', async () => {
    const repo = tempRepo('[roles]\nplanner = "gemini"\nreviewer = "gemini"\n');
    cleanup = repo.cleanup;
    const bin = path.join(repo.home, 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(path.join(bin, 'gemini'), `#!/bin/sh\necho "Error: API key ${KEY} is not valid" >&2\nexit 1\n`);
    chmodSync(path.join(bin, 'gemini'), 0o755);
    const env = {
      PATH: `${bin}:${process.env.PATH}`,
      GEMINI_API_KEY: 'test-key',
      GOOGLE_GEMINI_BASE_URL: 'https://me:' + 'Pr0xyPassw0rd@proxy.local:8443',
    };
    const failing = await runCli(['doctor'], { cwd: repo.dir, home: repo.home, env }).done;
    expect(failing.stdout).toContain('gemini: `gemini --version` exited 1: Error: API key [REDACTED:google-api-key]');
    expect(failing.stdout).not.toContain(KEY);

    writeFileSync(path.join(bin, 'gemini'), '#!/bin/sh\necho "0.61.0"\n');
    const working = await runCli(['doctor'], { cwd: repo.dir, home: repo.home, env }).done;
    expect(working.stdout).toContain('at https://me:[REDACTED:url-password]@proxy.local:8443 (GOOGLE_GEMINI_BASE_URL)');
    expect(working.stdout).not.toContain('Pr0xyPassw0rd');
  });
});
