// The TUI: renders what the engine publishes and turns keys into engine commands. No workflow logic here: the
// engine decides, the view model shapes, the keymap names the keys.
import { isAgentRound } from '../core/interrupt.js';
import type { BudgetCaps } from '../core/budget.js';
import type { RunSetup } from './tabs/content.js';
import type { Key } from 'ink';
import { Box, ColorContext, colorsWanted } from './styled.js';
import { useCallback, useReducer, useRef, useState } from 'react';
import { hintsNow, type Modal } from './Banner.js';
import { BottomPanel } from './BottomPanel.js';
import { FlashLine } from './FlashLine.js';
import { dialogFor } from './decision-keys.js';
import { commandFor, isSearchCommand, isViewCommand, TAB_IDS, type CommandName, type KeyContext } from './keymap.js';
import { isScroll } from './lines.js';
import { SearchLine } from './SearchLine.js';
import type { EditableFile, EngineLike, FilesReader, InputHistory } from './ports.js';
import { inputHistory } from './input-history.js';
import { scrollHint, ScrollView } from './ScrollView.js';
import { StatusBar } from './StatusBar.js';
import { TabBar } from './TabBar.js';
import { useFileTexts } from './use-files.js';
import { KeyRouterContext, type KeyRouter } from './key-router.js';
import type { KeyInfo } from './use-keys.js';
import { useKeyQueue } from './use-key-queue.js';
import { useTabs } from './use-tabs.js';
import { useEngineDispatch } from './use-engine-dispatch.js';
import { useTabWindow } from './use-tab-window.js';
import { InputHistoryContext, useTextField } from './use-text-field.js';
import { useTypeAhead } from './use-type-ahead.js';
import { withHistoryMarks } from './history-marks.js';
import { useAttentionBell } from './use-attention-bell.js';
import { useTerminalSize } from './use-terminal-size.js';
import { useEngineBatches } from './use-engine-batches.js';
import { initialView, reduceAll, reduceView, type ViewAction, type ViewState } from './view-model.js';

export interface AppProps {
  engine: EngineLike;
  files: FilesReader;
  /** `workflow.confirm_enter`: Enter asks before letting a round through. */
  confirmEnter?: boolean;
  /** Ctrl+C (force = the second one within 2 s), or q once the run is finished. */
  onQuit?: (force: boolean) => void;
  /** `n` once the run is DONE or CANCELLED: a new run starts in the same TUI (the finished one is archived). */
  onNewRun?: () => void;
  /** Opens the file in $EDITOR; the tabs reload when it resolves. */
  onEdit?: (file: EditableFile) => Promise<void>;
  /** The person's input is needed (bell / notification); `what` says for what. */
  onAttention?: (what: string) => void;
  /** Colours on (default: unless NO_COLOR is set). */
  colors?: boolean;
  /** Called once the App listens to the engine: start or resume the engine here. */
  onReady?: () => void;
  /** A line to show at start (e.g. state.json was corrupt and moved aside). */
  notice?: string;
  /** `[safety] sandbox = "off"`: the status bar says UNCONFINED. */
  sandboxOff?: boolean;
  /** `[budget]` caps: the status bar shows spent / cap. */
  budget?: BudgetCaps;
  /** Who plays each role with which model and effort (Status tab). */
  roles?: RunSetup['roles'];
  /** A resumed run's conversation so far (read back from debug.log), shown before anything new. */
  history?: readonly ViewAction[];
  now?: () => number;
  /** Status-bar clock tick; 0 disables it (tests). */
  tickMs?: number;
  maxEntries?: number;
  /** The earlier goals and messages ↑/↓ go through in the text boxes (kept across runs by the TUI). */
  inputHistory?: InputHistory;
}

type Overlay = Extract<Modal, 'help' | 'confirm_stop' | 'confirm_enter'>;

const QUIT_WINDOW_MS = 2000;

/** Ctrl+G or /ready before any goal is typed. */
export const NO_GOAL_YET =
  'No goal yet: type it in the goal box, then Enter to discuss it with the planner or Ctrl+G when it is ready.';

export function App(props: AppProps) {
  const {
    engine,
    files,
    confirmEnter = false,
    onQuit,
    onNewRun,
    onEdit,
    onAttention,
    onReady,
    now = Date.now,
    colors = colorsWanted(),
  } = props;
  const reducer = useCallback(
    (v: ViewState, a: ViewAction | { type: 'batch'; actions: ViewAction[] }) =>
      a.type === 'batch' ? reduceAll(v, a.actions, now()) : reduceView(v, a, now()),
    [now],
  );
  const [view, send] = useReducer(reducer, engine.state, (s) =>
    initialView(s, { maxEntries: props.maxEntries, now: now() }),
  );
  const { tab, opened, show: showTab, cycle } = useTabs();
  const [overlay, setOverlay] = useState<Overlay | null>(null);
  const [typingOff, setTypingOff] = useState(false);
  const [draft, setDraft] = useState('');
  const lastQuit = useRef<number | null>(null);
  const history = useRef(props.inputHistory ?? inputHistory([])).current;
  const { columns, rows } = useTerminalSize();
  const { texts, reload } = useFileTexts(files, view.state.updatedAt, { debug: tab === 'log' });

  useEngineBatches(
    engine,
    view.maxEntries,
    (actions) => send({ type: 'batch', actions }),
    () => {
      const history = props.history ?? [];
      if (history.length > 0) send({ type: 'batch', actions: withHistoryMarks(history) });
      if (props.notice) send({ type: 'ui_notice', text: props.notice, tone: 'warn' });
      onReady?.();
    },
  );

  const pending = view.state.pendingCommand;
  useAttentionBell(view, pending, onAttention);

  const busy = view.state.inflight !== null;
  // A stopped run asks nothing more: no dialog, only the help; the tabs stay readable.
  const stopped = view.stopped !== null;
  const { dispatch, answered, answeredCommand } = useEngineDispatch(engine, send, {
    stopped,
    awaiting: view.awaiting,
    // A stop or an interruption ends the round the queued message waited for: it goes back into the goal box, unsent.
    onRoundEnds: () => {
      const queued = typeAhead.take();
      if (queued) setDraft((d) => [d.trim(), queued].filter(Boolean).join('\n')); // the box holds lines now
    },
  });
  const commandOpen = !stopped && pending !== null && pending.id !== answeredCommand;
  const modal: Modal | null = commandOpen
    ? 'command'
    : stopped
      ? overlay === 'help'
        ? 'help'
        : null
      : (overlay ?? (view.awaiting !== answered && !busy ? dialogFor(view.awaiting) : null));
  // The goal box keeps the keyboard while the planner answers: what is typed then is kept (type-ahead).
  const goalBox = view.phase === 'REFINE_GOAL' && (view.awaiting?.kind === 'goal' || busy);
  const typing = goalBox && !typingOff && !modal && !view.finished && !stopped;

  const width = Math.max(20, columns);
  const win = useTabWindow({ tab, view, texts, files, width, rows, now, roles: props.roles, budget: props.budget });
  const { lines, viewport, search } = win;
  const ctx: KeyContext = {
    phase: view.phase,
    mode: view.state.mode,
    pauseRequested: view.state.pauseRequested,
    busy,
    agentRound: isAgentRound(view.state.inflight),
    awaiting: view.awaiting?.kind ?? null,
    tab,
    typing,
    stopped,
    goalStated: draft.trim() !== '' || view.state.goal.trim() !== '',
    searching: search.query !== null,
  };

  const edit = (file: EditableFile): void => {
    if (!onEdit) {
      send({ type: 'ui_notice', text: 'no editor available here', tone: 'warn' });
      return;
    }
    void onEdit(file).then(reload, (err: unknown) =>
      send({ type: 'ui_notice', text: `editor: ${err instanceof Error ? err.message : String(err)}`, tone: 'error' }),
    );
  };

  const goalReady = (goal?: string): void => {
    // The engine would refuse it ("state a goal first"): say what to do instead of echoing "Goal is ready."
    if (!goal && !view.state.goal.trim()) {
      send({ type: 'ui_notice', text: NO_GOAL_YET, tone: 'warn' });
      return;
    }
    dispatch(goal ? { type: 'goal_ready', goal } : { type: 'goal_ready' });
    setDraft('');
  };

  const submitGoal = (value: string): void => {
    const text = value.trim();
    if (!text) return;
    if (busy) {
      typeAhead.queue(text);
      setDraft('');
      return;
    }
    const ready = /^\/ready\b\s*([\s\S]*)$/.exec(text);
    if (ready) return goalReady(ready[1]?.trim() || undefined);
    dispatch({ type: 'user_message', text });
    setDraft('');
  };

  const typeAhead = useTypeAhead(view.awaiting?.kind === 'goal' && !busy && !stopped && !modal, submitGoal);

  const run = (cmd: CommandName): void => {
    if (isScroll(cmd)) return win.scroll(cmd);
    switch (cmd) {
      case 'next_round':
        if (confirmEnter && view.awaiting?.kind === 'go') setOverlay('confirm_enter');
        else dispatch({ type: 'go' });
        return;
      case 'interrupt':
        return dispatch({ type: 'interrupt' });
      case 'auto':
        return dispatch({ type: 'set_mode', mode: 'auto' });
      case 'pause':
        return dispatch({ type: 'pause' });
      case 'stop':
        return setOverlay('confirm_stop');
      case 'help':
        return setOverlay('help');
      case 'edit':
        return edit(tab === 'comments' ? 'comments' : 'plan');
      case 'goal_ready':
        history.add(goalField.value()); // a goal confirmed with Ctrl+G is one ↑ recalls too
        return goalReady(goalField.value().trim() || undefined);
      case 'toggle_input':
        return setTypingOff((x) => !x);
      case 'toggle_details':
        return win.toggleDetails();
      case 'diff_prev':
      case 'diff_next':
        return win.stepDiff(cmd === 'diff_next' ? 1 : -1);
      case 'tab_next':
        return cycle(1);
      case 'tab_prev':
        return cycle(-1);
      case 'tab_1':
      case 'tab_2':
      case 'tab_3':
      case 'tab_4':
      case 'tab_5':
      case 'tab_6':
      case 'tab_7':
        return showTab(TAB_IDS[Number(cmd.slice(4)) - 1] ?? 'conversation');
      case 'exit':
        return onQuit?.(false);
      case 'new_run':
        return onNewRun?.();
      case 'search':
        return search.open();
      case 'search_next':
        return search.next();
      case 'search_prev':
        return search.previous();
      case 'search_clear':
        return search.clear();
      case 'quit':
        return; // handled below, whatever has the keyboard
    }
  };

  const goalField = useTextField(draft, setDraft, submitGoal, history);
  const router = useRef<KeyRouter>({ dialog: null }).current;

  const quit = (): void => {
    const t = now();
    const force = lastQuit.current !== null && t - lastQuit.current < QUIT_WINDOW_MS;
    lastQuit.current = t;
    if (!force)
      send({
        type: 'ui_notice',
        text: 'Stopping the agents and saving the state… (Ctrl+C again to force)',
        tone: 'warn',
      });
    onQuit?.(force);
  };

  // The one keyboard listener: Ctrl+C always; then the open dialog, or the keymap, or the goal box.
  const handleKey = (input: string, key: Key, info: KeyInfo): void => {
    if (search.prompt !== null) return search.onPromptKey(input, key);
    if (modal) {
      if (router.dialog?.(input, key, info) !== false) return;
      // A key the dialog does not declare may still change the view or search (nothing that acts on the run).
      const nav = commandFor(input, key, { ...ctx, typing: false });
      if (nav && (isViewCommand(nav) || isSearchCommand(nav))) run(nav);
      return;
    }
    // The goal box first: its editing keys (↑/↓, Home/End) win over scrolling while it has the keyboard.
    if (typing && goalField.onKey(input, key, info)) return;
    if (info.paste) return; // a pasted text is no command
    const cmd = commandFor(input, key, ctx);
    if (cmd) run(cmd);
  };
  useKeyQueue({
    handle: handleKey,
    // Outside the goal box and the search line, several characters that came as one text are several keys.
    splitBursts: search.prompt === null && !typing,
    onWheel: win.wheel,
    onQuit: quit,
  });

  const closeOverlay = (): void => setOverlay(null);
  return (
    <ColorContext.Provider value={colors}>
      <KeyRouterContext.Provider value={router}>
        <Box flexDirection="column" height={Math.max(8, rows - 1)} width={width}>
          {/* Only the conversation window and, past it, the dialog give way when space runs short: the window's
              size is measured after a frame, so a bottom that just grew must not squeeze the bars meanwhile. */}
          <Box flexShrink={0}>
            <TabBar tab={tab} opened={opened} columns={width} right={scrollHint(lines.length, win.height, viewport)} />
          </Box>
          <Box ref={win.ref} flexDirection="column" flexGrow={1} flexShrink={1} flexBasis={0} overflow="hidden">
            <ScrollView lines={lines} height={win.height} viewport={viewport} highlight={search.highlight} />
          </Box>
          <Box flexShrink={0}>
            <FlashLine flash={view.flash} columns={width} />
          </Box>
          <Box flexShrink={1} flexDirection="column" overflow="hidden">
            <InputHistoryContext.Provider value={history}>
              <BottomPanel
                modal={modal}
                view={view}
                ctx={ctx}
                columns={width}
                // Below the tab bar and above the flash line and the status bar's two lines: what the help may take.
                maxHelpLines={rows - 6}
                editor={goalField.editor}
                typing={typing}
                busy={busy}
                queued={typeAhead.queued}
                texts={texts}
                dispatch={dispatch}
                edit={edit}
                closeOverlay={closeOverlay}
              />
            </InputHistoryContext.Provider>
          </Box>
          <SearchLine search={search} />
          <Box flexShrink={0} flexDirection="column">
            <StatusBar
              view={view}
              hints={hintsNow(modal, view, ctx)}
              now={now}
              tickMs={props.tickMs}
              sandboxOff={props.sandboxOff ?? false}
              {...(props.budget && { budget: props.budget })}
            />
          </Box>
        </Box>
      </KeyRouterContext.Provider>
    </ColorContext.Provider>
  );
}
