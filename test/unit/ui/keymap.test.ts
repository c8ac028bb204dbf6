import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import { commandFor, helpRows, hintsFor, KEYMAP, type CommandName, type KeyContext } from '../../../src/ui/keymap.js';
import { NO_KEY } from '../../../src/ui/paste.js';

const k = (over: Partial<Key> = {}): Key => ({ ...NO_KEY, ...over });

const manualGo: KeyContext = {
  phase: 'REVIEW',
  mode: 'manual',
  pauseRequested: false,
  busy: false,
  awaiting: 'go',
  tab: 'conversation',
  typing: false,
};
const autoBusy: KeyContext = { ...manualGo, mode: 'auto', busy: true, awaiting: null };
const typingGoal: KeyContext = { ...manualGo, phase: 'REFINE_GOAL', awaiting: 'goal', typing: true };

describe('keymap', () => {
  it('has one binding per command, each with keys and a description', () => {
    const names = KEYMAP.map((b) => b.command);
    expect(new Set(names).size).toBe(names.length);
    for (const b of KEYMAP) {
      expect(b.keys.length).toBeGreaterThan(0);
      expect(b.description).not.toBe('');
    }
    const required: CommandName[] = [
      'next_round',
      'auto',
      'pause',
      'stop',
      'quit',
      'help',
      'edit',
      'tab_next',
      'tab_prev',
      'tab_1',
      'tab_5',
      'scroll_up',
      'scroll_down',
      'page_up',
      'page_down',
      'scroll_top',
      'scroll_bottom',
      'goal_ready',
    ];
    for (const c of required) expect(names).toContain(c);
  });

  it('maps the documented keys to their commands', () => {
    expect(commandFor('\r', k({ return: true }), manualGo)).toBe('next_round');
    expect(commandFor('a', k(), manualGo)).toBe('auto');
    expect(commandFor('A', k({ shift: true }), manualGo)).toBe('auto');
    expect(commandFor('p', k(), autoBusy)).toBe('pause');
    expect(commandFor('s', k(), manualGo)).toBe('stop');
    expect(commandFor('c', k({ ctrl: true }), manualGo)).toBe('quit');
    expect(commandFor('?', k(), manualGo)).toBe('help');
    expect(commandFor('e', k(), { ...manualGo, tab: 'plan' })).toBe('edit');
    expect(commandFor('', k({ tab: true }), manualGo)).toBe('tab_next');
    expect(commandFor('', k({ tab: true, shift: true }), manualGo)).toBe('tab_prev');
    expect(commandFor('3', k(), manualGo)).toBe('tab_3');
    expect(commandFor('', k({ pageUp: true }), manualGo)).toBe('page_up');
    expect(commandFor('', k({ end: true }), manualGo)).toBe('scroll_bottom');
    expect(commandFor('g', k({ ctrl: true }), typingGoal)).toBe('goal_ready');
  });

  it('only offers a command when it applies', () => {
    expect(commandFor('\r', k({ return: true }), autoBusy)).toBeNull(); // nothing to let through
    expect(commandFor('p', k(), manualGo)).toBeNull(); // pause is for auto mode
    expect(commandFor('a', k(), { ...autoBusy, pauseRequested: false })).toBeNull(); // already auto
    expect(commandFor('e', k(), manualGo)).toBeNull(); // edit applies on the Plan / Comments tabs
    expect(commandFor('s', k(), { ...manualGo, phase: 'REFINE_GOAL', awaiting: 'goal' })).toBeNull(); // nothing to stop
    expect(commandFor('q', k(), manualGo)).toBeNull();
    expect(commandFor('q', k(), { ...manualGo, phase: 'DONE', awaiting: null })).toBe('exit');
  });

  it('leaves letters and digits to the goal box while it has the keyboard', () => {
    for (const ch of ['a', 'p', 's', '?', 'e', '1', 'x']) expect(commandFor(ch, k(), typingGoal)).toBeNull();
    expect(commandFor('', k({ tab: true }), typingGoal)).toBe('tab_next');
    expect(commandFor('c', k({ ctrl: true }), typingGoal)).toBe('quit');
  });

  it('status-bar hints list the keys that apply now', () => {
    expect(hintsFor(manualGo).map((h) => `${h.key} ${h.text}`)).toEqual([
      'Enter next round',
      'a auto',
      's stop',
      '? help',
      'Ctrl+C quit',
    ]);
    expect(hintsFor(autoBusy).map((h) => h.command)).toEqual(['pause', 'stop', 'help', 'quit']);
    expect(hintsFor({ ...manualGo, awaiting: 'failure' }).find((h) => h.command === 'next_round')?.text).toBe('retry');
    expect(hintsFor(typingGoal).map((h) => h.command)).toEqual(['goal_ready', 'toggle_input', 'quit']);
  });

  it('the help lists every command once', () => {
    const covered = helpRows().flatMap((r) => r.commands);
    expect(new Set(covered)).toEqual(new Set(KEYMAP.map((b) => b.command)));
    expect(covered.length).toBe(KEYMAP.length);
  });
});

describe('the scroll keys people bring from less, vim, lazygit and k9s', () => {
  it('j/k scroll a line, g/G go to the top/end, Ctrl+D/U half a page — outside the goal box only', () => {
    expect(commandFor('j', k(), manualGo)).toBe('scroll_down');
    expect(commandFor('k', k(), manualGo)).toBe('scroll_up');
    expect(commandFor('g', k(), manualGo)).toBe('scroll_top');
    expect(commandFor('G', k({ shift: true }), manualGo)).toBe('scroll_bottom');
    expect(commandFor('d', k({ ctrl: true }), autoBusy)).toBe('half_page_down');
    expect(commandFor('u', k({ ctrl: true }), autoBusy)).toBe('half_page_up');
    for (const [input, key] of [
      ['j', k()],
      ['G', k({ shift: true })],
      ['u', k({ ctrl: true })],
    ] as const)
      expect(commandFor(input, key, typingGoal), `${input} while typing`).toBeNull();
    // Ctrl+G is still "goal ready", not g.
    expect(commandFor('g', k({ ctrl: true }), { ...typingGoal, goalStated: true })).toBe('goal_ready');
  });

  it('help lists them in the scroll row', () => {
    const row = helpRows().find((r) => r.commands.includes('half_page_down'));
    expect(row?.keys).toBe('k j Ctrl+U Ctrl+D g G');
  });
});
