// An action as the person reads it in the status bar and the dialogs: what it is, and who does it.
import { roleOf } from '../core/approval.js';
import { isAgentAction, type Action, type Role, type WorkflowState } from '../core/types.js';

/** What an action is, for a person: "writing the plan", "executing step 2: add tests". */
export function describeAction(action: Action, s: Pick<WorkflowState, 'iteration' | 'steps'>): string {
  switch (action.kind) {
    case 'refine':
      return 'refining the goal';
    case 'write_plan':
      return 'writing the plan';
    case 'review':
      return action.reask ? 'asked again for a clear verdict' : `reviewing the plan (round ${s.iteration + 1})`;
    case 'respond':
      return 'revising the plan after review';
    case 'code_review':
      if (action.reask) return 'asked again for a clear code review verdict';
      return action.step === null ? "reviewing the run's code" : `reviewing step ${action.step}'s code`;
    case 'code_fix':
      return 'turning the code review into fix steps';
    case 'execute_step': {
      const title = s.steps.find((st) => st.n === action.step)?.title;
      const of = s.steps.length ? `/${s.steps.length}` : '';
      return `executing step ${action.step}${of}${title ? `: ${title}` : ''}`;
    }
    case 'commit_step':
      return `committing step ${action.step}`;
    case 'ask_test_command':
      return `asking which command tests step ${action.step}`;
    case 'run_tests':
      return `testing step ${action.step} (attempt ${action.attempt})`;
    case 'rollback_step':
      return `rolling back step ${action.step}`;
  }
}

/** Who does an action: an agent, git (commit, rollback), or agent-collab itself (running the tests). */
export function whoRuns(action: Action): Role | 'git' | 'agent-collab' {
  if (isAgentAction(action)) return roleOf(action);
  return action.kind === 'run_tests' ? 'agent-collab' : 'git';
}
