// Issue 20, defect 14: `--help` says that plain `agent-collab` opens the terminal UI.
import { describe, expect, it } from 'vitest';
import { HELP } from '../../../src/modes/help.js';

describe('--help', () => {
  it('lists plain `agent-collab` (no command) as the way to open the terminal UI', () => {
    expect(HELP).toMatch(/^ {2}agent-collab {2,}open the terminal UI/m);
  });
});
