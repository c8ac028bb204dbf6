// What stands between the tab's window and the status bar: the dialog or overlay that has the keyboard, else the
// banner with the goal box. Each choice made here becomes one engine event (the App sends it).
import type { EngineEvent } from '../core/events.js';
import { Banner, type Modal } from './Banner.js';
import { commandDecideEvent } from './decision-keys.js';
import { AwaitingDialog } from './dialogs/AwaitingDialog.js';
import { ConfirmDialog } from './dialogs/ConfirmDialog.js';
import { CommandDialog } from './dialogs/ExecutionDialogs.js';
import { HelpOverlay } from './dialogs/HelpOverlay.js';
import type { KeyContext } from './keymap.js';
import type { Editor } from './line-editor.js';
import type { EditableFile } from './ports.js';
import type { FileTexts } from './use-files.js';
import { describeAction, whoRuns, type ViewState } from './view-model.js';

interface BottomPanelProps {
  modal: Modal | null;
  view: ViewState;
  /** What the keys depend on now (the help lists the keys that apply). */
  ctx: KeyContext;
  columns: number;
  /** The lines the help may take. */
  maxHelpLines: number;
  /** The goal box's text and cursor, whether it has the keyboard, and what waits to be sent (type-ahead). */
  editor: Editor;
  typing: boolean;
  busy: boolean;
  queued: string | null;
  texts: FileTexts;
  /** `fromDialog`: the awaiting dialog answered (it stays closed unless the engine refuses the event). */
  dispatch: (event: EngineEvent, fromDialog?: boolean) => void;
  edit: (file: EditableFile) => void;
  closeOverlay: () => void;
}

export function BottomPanel(props: BottomPanelProps) {
  const { modal, view, dispatch, edit, closeOverlay } = props;
  const a = view.awaiting;
  const pending = view.state.pendingCommand;
  switch (modal) {
    case 'help':
      return (
        <HelpOverlay
          ctx={{ ...props.ctx, typing: false }}
          onClose={closeOverlay}
          columns={props.columns}
          maxLines={props.maxHelpLines}
        />
      );
    case 'confirm_stop':
      return (
        <ConfirmDialog
          title="Stop this phase and go back to goal refinement?"
          body="The agents are stopped; plan.md is kept."
          onYes={() => {
            closeOverlay();
            dispatch({ type: 'stop' });
          }}
          onNo={closeOverlay}
        />
      );
    case 'confirm_enter':
      return (
        <ConfirmDialog
          title={
            a?.kind === 'go'
              ? `Let the next round through (${whoRuns(a.action)}: ${describeAction(a.action, view.state)})?`
              : 'Let the next round through?'
          }
          onYes={() => {
            closeOverlay();
            dispatch({ type: 'go' });
          }}
          onNo={closeOverlay}
        />
      );
    case 'command':
      return pending ? (
        <CommandDialog pending={pending} onChoose={(choice) => dispatch(commandDecideEvent(pending, choice))} />
      ) : null;
    case null:
      return <Banner view={view} editor={props.editor} typing={props.typing} busy={props.busy} queued={props.queued} />;
    default:
      return a ? (
        <AwaitingDialog
          awaiting={a}
          onEvent={(event) => dispatch(event, true)}
          onEditPlan={() => edit('plan')}
          onEdit={edit}
          texts={props.texts}
          state={view.state}
        />
      ) : null;
  }
}
