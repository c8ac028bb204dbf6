import { describe, expect, it } from 'vitest';
import { escapeJsonControls, neutralizeControls } from '../../../src/core/terminal-text.js';

const ESC = '\u001b';

describe('neutralizeControls', () => {
  it('shows ESC, BEL, CR, NUL and DEL as Control Pictures and C1 controls as �, one character each', () => {
    expect(neutralizeControls(`${ESC}[2J${ESC}]0;t\u0007a\rb\u0000\u007f\u009b1m`)).toBe('␛[2J␛]0;t␇a␍b␀␡�1m');
  });

  it('keeps tab and newline; a CR LF pair becomes a newline', () => {
    expect(neutralizeControls('a\tb\nc\r\nd')).toBe('a\tb\nc\nd');
  });

  it('returns clean text unchanged (unicode included) and is idempotent', () => {
    const clean = 'plan ✓ — 日本語 🙂\n';
    expect(neutralizeControls(clean)).toBe(clean);
    const once = neutralizeControls(`x${ESC}[31my\u0085`);
    expect(neutralizeControls(once)).toBe(once);
    // eslint-disable-next-line no-control-regex
    expect(once).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });
});

describe('escapeJsonControls', () => {
  it('escapes DEL and C1 (JSON.stringify leaves them raw) and keeps the JSON value', () => {
    const value = { text: `a${ESC}[2J\u007f\u009b\u009d b` };
    const json = escapeJsonControls(JSON.stringify(value));
    // eslint-disable-next-line no-control-regex
    expect(json).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(JSON.parse(json)).toEqual(value);
  });
});
