// What confinement refused is named in the run's output: from the events each CLI gives for a refused write.
import { describe, expect, it } from 'vitest';
import { REFUSAL_ID, RefusalWatcher } from '../../../src/adapters/confinement/index.js';

const turn = { repo: '/r/repo', workdir: '/r/repo/.agent-collab' };
const refusal = (output: string) => ({ type: 'tool_result', id: REFUSAL_ID, output, isError: true });

describe('refusals', () => {
  it('a command whose write hit the read-only file system is named', () => {
    const w = new RefusalWatcher(turn);
    expect(
      w.see({
        type: 'command',
        command: 'echo x > .agent-collab/plan.md',
        status: 'completed',
        exitCode: 1,
        output: '/bin/bash: line 1: .agent-collab/plan.md: Read-only file system\n',
      }),
    ).toEqual(
      refusal('confinement refused: a write by the command echo x > .agent-collab/plan.md (read-only file system)'),
    );
    expect(w.see({ type: 'command', command: 'ls', status: 'completed', exitCode: 0, output: 'a\n' })).toBeNull();
  });

  it('a claude file tool call denied by the rules is named with its path', () => {
    const w = new RefusalWatcher(turn);
    expect(
      w.see({ type: 'tool_call', id: 't1', name: 'Write', input: { file_path: '/r/repo/.git/config' } }),
    ).toBeNull();
    expect(
      w.see({
        type: 'tool_result',
        id: 't1',
        isError: true,
        output: '<tool_use_error>File is in a directory that is denied by your permission settings.</tool_use_error>',
      }),
    ).toMatchObject({
      id: REFUSAL_ID,
      output: expect.stringMatching(/^confinement refused: Write \/r\/repo\/\.git\/config \(/),
    });
    expect(w.see({ type: 'tool_result', id: 't2', isError: true, output: 'File has not been read yet.' })).toBeNull();
  });

  it('a failed codex patch is named when it aims outside the working tree or into a protected dir, not otherwise', () => {
    const w = new RefusalWatcher(turn);
    expect(
      w.see({
        type: 'tool_result',
        id: 'i',
        isError: true,
        output: 'patch not applied (failed): /r/repo/.agent-collab/plan.md',
      }),
    ).toMatchObject({
      output: expect.stringMatching(/^confinement refused: a patch of \/r\/repo\/\.agent-collab\/plan\.md/),
    });
    expect(
      w.see({ type: 'tool_result', id: 'i', isError: true, output: 'patch not applied (failed): /r/outside.txt' }),
    ).not.toBeNull();
    expect(
      w.see({ type: 'tool_result', id: 'i', isError: true, output: 'patch not applied (failed): src/a.ts' }),
    ).toBeNull();
  });

  it('its own events are not refused again', () => {
    const w = new RefusalWatcher(turn);
    expect(w.see(refusal('confinement refused: a write by the command x (Read-only file system)') as never)).toBeNull();
  });

  it('a patch codex rejected only on stderr (0.169: no JSON event) is named, one event per rejected patch', () => {
    const w = new RefusalWatcher(turn);
    const stderr =
      'Reading prompt from stdin...\npatch rejected: writing outside of the project\nsome other line\n' +
      '2026-11-26T06:00:00Z ERROR codex_core: patch rejected: writing outside of the project\n';
    expect(w.seeStderr(stderr)).toEqual([
      refusal('confinement refused: a patch (writing outside of the project)'),
      refusal('confinement refused: a patch (writing outside of the project)'),
    ]);
    expect(w.seeStderr('Reading prompt from stdin...\nerror: something else\n')).toEqual([]);
  });
});
