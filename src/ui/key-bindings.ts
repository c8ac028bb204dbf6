// The TUI's commands and the keys bound to them, in one table, with when each applies. An open dialog keeps the
// keys it declares (the person's choices, from the decisions table: core/decisions.ts, see decision-keys.ts); its
// other keys only switch tabs, scroll and search (all only read). keymap.ts answers the questions asked of it.
import type { Awaiting, Mode, Phase } from '../core/types.js';
import { isTerminal } from '../core/transition-rules.js';
import { key, type KeySpec } from './key-spec.js';

export const TAB_IDS = ['conversation', 'plan', 'comments', 'log', 'status', 'code', 'diff'] as const;
export type TabId = (typeof TAB_IDS)[number];

export type CommandName =
  | 'next_round'
  | 'interrupt'
  | 'auto'
  | 'pause'
  | 'stop'
  | 'quit'
  | 'exit'
  | 'new_run'
  | 'help'
  | 'edit'
  | 'goal_ready'
  | 'toggle_input'
  | 'toggle_details'
  | 'tab_next'
  | 'tab_prev'
  | 'tab_1'
  | 'tab_2'
  | 'tab_3'
  | 'tab_4'
  | 'tab_5'
  | 'tab_6'
  | 'tab_7'
  | 'diff_prev'
  | 'diff_next'
  | SearchCommand
  | ScrollCommand;

/** `/` search in the tab shown, as in less: it only reads, so it works while a dialog asks too. */
export const SEARCH_COMMANDS = ['search', 'search_next', 'search_prev', 'search_clear'] as const;
export type SearchCommand = (typeof SEARCH_COMMANDS)[number];

export function isSearchCommand(c: CommandName): c is SearchCommand {
  return (SEARCH_COMMANDS as readonly string[]).includes(c);
}

/** The commands that move the view of a tab (they work whatever has the keyboard, dialogs included). */
export const SCROLL_COMMANDS = [
  'scroll_up',
  'scroll_down',
  'page_up',
  'page_down',
  'scroll_top',
  'scroll_bottom',
  'half_page_up',
  'half_page_down',
] as const;
export type ScrollCommand = (typeof SCROLL_COMMANDS)[number];

/**
 * The commands that only change what is shown (a tab, its window, which patch, an expanded event): while a dialog is
 * open, a key it does not declare may still do these, so what the person decides on can be read first.
 */
export function isViewCommand(c: CommandName): boolean {
  return (
    (SCROLL_COMMANDS as readonly string[]).includes(c) ||
    c.startsWith('tab_') ||
    c === 'diff_prev' ||
    c === 'diff_next' ||
    c === 'toggle_details'
  );
}

/** What the keys depend on. */
export interface KeyContext {
  phase: Phase;
  mode: Mode;
  pauseRequested: boolean;
  /** An agent round (or a commit) is under way. */
  busy: boolean;
  /** An agent's round is under way (not agent-collab's tests or commit): Esc interrupts it. */
  agentRound?: boolean;
  awaiting: Awaiting['kind'] | null;
  tab: TabId;
  /** The goal input box has the keyboard: letters and digits are text, not commands. */
  typing: boolean;
  /** The run was stopped by an error that ends it: nothing can be sent to the engine any more, only q leaves. */
  stopped?: boolean;
  /** A goal is typed or already stated: Ctrl+G is offered only then (pressed without one, it says what to do). */
  goalStated?: boolean;
  /** A search is active (its matches are highlighted): n / N go through them, Esc clears it. */
  searching?: boolean;
}

export interface Binding {
  command: CommandName;
  keys: KeySpec[];
  /** One line for the help overlay. */
  description: string;
  /** Short text for the status bar; bindings without one are listed only in the help. */
  hint?: string | ((ctx: KeyContext) => string);
  /** When the command applies. */
  when: (ctx: KeyContext) => boolean;
}

/** A run under way: started (past INIT) and not finished. */
const running = (c: KeyContext): boolean => c.phase !== 'INIT' && !isTerminal(c.phase) && !c.stopped;
const notTyping = (c: KeyContext): boolean => !c.typing;
const finished = (c: KeyContext): boolean => c.phase === 'DONE' || c.phase === 'CANCELLED' || c.stopped === true;
/** Outside the goal box with a search active: n, N and Esc are the search's (as in less). */
const searchKeys = (c: KeyContext): boolean => !c.typing && c.searching === true;

const tab = (n: 1 | 2 | 3 | 4 | 5 | 6 | 7, name: string): Binding => ({
  command: `tab_${n}`,
  keys: [key(String(n), { input: String(n) })],
  description: `Show the ${name} tab`,
  when: notTyping,
});

export const KEYMAP: readonly Binding[] = [
  {
    command: 'next_round',
    keys: [key('Enter', { special: 'return' })],
    description: 'Let the next agent round through (manual mode); retry after a failure',
    hint: (c) => (c.awaiting === 'failure' ? 'retry' : 'next round'),
    when: (c) => !c.typing && !c.busy && !c.stopped && (c.awaiting === 'go' || c.awaiting === 'failure'),
  },
  {
    command: 'goal_ready',
    keys: [key('Ctrl+G', { input: 'g', ctrl: true })],
    description: 'The goal is ready: the planner writes the plan (or type /ready)',
    hint: (c) => (c.goalStated === false ? '' : 'goal ready'),
    when: (c) => c.awaiting === 'goal' && !c.busy && !c.stopped,
  },
  {
    command: 'interrupt',
    keys: [key('Esc', { special: 'escape' })],
    description: 'Interrupt the agent’s round: it stops, the phase stays; then run it again, with a message, or stop',
    hint: 'interrupt',
    // With a search's highlight on, the first Esc clears it: a key meant for the search never stops an agent.
    when: (c) => c.agentRound === true && !c.stopped && !searchKeys(c),
  },
  {
    command: 'toggle_input',
    keys: [key('Esc', { special: 'escape' })],
    description: 'Leave / return to the goal input box (keys work outside it)',
    hint: (c) => (c.typing ? 'keys' : 'type'),
    // While the planner answers too: the goal box takes type-ahead then. Esc during an agent's round interrupts it
    // (the binding above), so the box cannot be left then; the interrupt dialog offers stop.
    when: (c) =>
      (c.awaiting === 'goal' || (c.phase === 'REFINE_GOAL' && c.busy)) && !c.stopped && !c.agentRound && !searchKeys(c),
  },
  {
    command: 'auto',
    keys: [key('a', { input: 'a' })],
    description: 'Auto mode: rounds run without waiting for Enter',
    hint: 'auto',
    when: (c) => notTyping(c) && running(c) && (c.mode === 'manual' || c.pauseRequested),
  },
  {
    command: 'pause',
    keys: [key('p', { input: 'p' })],
    description: 'Pause auto mode at the next safe point (end of the round under way)',
    hint: 'pause',
    when: (c) => notTyping(c) && running(c) && c.mode === 'auto' && !c.pauseRequested,
  },
  {
    command: 'stop',
    keys: [key('s', { input: 's' })],
    description: 'Stop this phase and go back to goal refinement (asks first; the plan is kept)',
    hint: 'stop',
    when: (c) => notTyping(c) && running(c) && (c.phase !== 'REFINE_GOAL' || c.busy),
  },
  {
    command: 'edit',
    keys: [key('e', { input: 'e' })],
    description: 'Open plan.md or comments.md (the tab shown) in $EDITOR',
    hint: 'edit',
    when: (c) => notTyping(c) && (c.tab === 'plan' || c.tab === 'comments'),
  },
  {
    command: 'toggle_details',
    keys: [key('x', { input: 'x' })],
    description: 'Expand / collapse tool calls (Conversation) or the selected event (Log)',
    // Shown in the Log tab only: there the expansion is what the selection is for.
    hint: (c) => (c.tab === 'log' ? 'expand' : ''),
    when: (c) => notTyping(c) && (c.tab === 'conversation' || c.tab === 'log'),
  },
  {
    command: 'help',
    keys: [key('?', { input: '?' })],
    description: 'Show this help',
    hint: 'help',
    when: notTyping,
  },
  {
    command: 'new_run',
    keys: [key('n', { input: 'n' })],
    description: 'Start a new goal once the run is done or cancelled (the finished run is archived)',
    hint: 'new goal',
    when: (c) => notTyping(c) && (c.phase === 'DONE' || c.phase === 'CANCELLED') && !c.stopped && !searchKeys(c),
  },
  {
    command: 'exit',
    keys: [key('q', { input: 'q' })],
    description: 'Leave agent-collab (once the run is finished or stopped)',
    hint: 'quit',
    when: (c) => notTyping(c) && finished(c),
  },
  {
    command: 'quit',
    keys: [key('Ctrl+C', { input: 'c', ctrl: true })],
    description: 'Stop the agents, save the state and exit (twice within 2 s: force)',
    hint: (c) => (finished(c) ? '' : 'quit'),
    when: () => true,
  },
  {
    command: 'tab_next',
    keys: [key('Tab', { special: 'tab', shift: false })],
    description: 'Next tab',
    when: () => true,
  },
  {
    command: 'tab_prev',
    keys: [key('Shift+Tab', { special: 'tab', shift: true })],
    description: 'Previous tab',
    when: () => true,
  },
  tab(1, 'Conversation'),
  tab(2, 'Plan'),
  tab(3, 'Comments'),
  tab(4, 'Log'),
  tab(5, 'Status'),
  tab(6, 'Code review'),
  tab(7, 'Diff'),
  {
    command: 'diff_prev',
    keys: [key('[', { input: '[' })],
    description: 'Diff tab: the previous step’s patch',
    when: (c) => notTyping(c) && c.tab === 'diff',
  },
  {
    command: 'diff_next',
    keys: [key(']', { input: ']' })],
    description: 'Diff tab: the next step’s patch (the last is the code review’s diff)',
    when: (c) => notTyping(c) && c.tab === 'diff',
  },
  {
    command: 'scroll_up',
    keys: [key('↑', { special: 'upArrow' }), key('k', { input: 'k', outsideInput: true })],
    description: 'Scroll up one line',
    when: () => true,
  },
  {
    command: 'scroll_down',
    keys: [key('↓', { special: 'downArrow' }), key('j', { input: 'j', outsideInput: true })],
    description: 'Scroll down one line',
    when: () => true,
  },
  {
    command: 'page_up',
    keys: [key('PgUp', { special: 'pageUp' })],
    description: 'Scroll up one page',
    when: () => true,
  },
  {
    command: 'page_down',
    keys: [key('PgDn', { special: 'pageDown' })],
    description: 'Scroll down one page',
    when: () => true,
  },
  {
    command: 'scroll_top',
    keys: [key('Home', { special: 'home' }), key('g', { input: 'g', exact: true, outsideInput: true })],
    description: 'Go to the top',
    when: () => true,
  },
  {
    command: 'scroll_bottom',
    keys: [key('End', { special: 'end' }), key('G', { input: 'G', outsideInput: true })],
    description: 'Go to the end and follow the stream',
    when: () => true,
  },
  {
    command: 'half_page_up',
    keys: [key('Ctrl+U', { input: 'u', ctrl: true, outsideInput: true })],
    description: 'Scroll up half a page',
    when: () => true,
  },
  {
    command: 'half_page_down',
    keys: [key('Ctrl+D', { input: 'd', ctrl: true, outsideInput: true })],
    description: 'Scroll down half a page',
    when: () => true,
  },
  {
    command: 'search',
    keys: [key('/', { input: '/' })],
    description: 'Search the tab shown',
    when: notTyping,
  },
  {
    command: 'search_next',
    keys: [key('n', { input: 'n', exact: true })],
    description: 'Next match',
    when: searchKeys,
  },
  {
    command: 'search_prev',
    keys: [key('N', { input: 'N', exact: true })],
    description: 'Previous match',
    when: searchKeys,
  },
  {
    command: 'search_clear',
    keys: [key('Esc', { special: 'escape' })],
    description: 'Clear the search',
    when: searchKeys,
  },
];
