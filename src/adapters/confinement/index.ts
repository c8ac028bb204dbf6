export { BWRAP, bwrapArgs, confinementMounts, type ConfinementSpec, type PrivateDir } from './bwrap-args.js';
export { gitDirsOf } from './git-dirs.js';
export {
  CONFINEMENT_INSTALL_HINT,
  SANDBOX_OFF_HINT,
  confinementError,
  probeConfinement,
  type Confinement,
} from './probe.js';
export { agentConfinement, checkConfinement, type AgentConfinement, type ConfinedTurn } from './turn.js';
export { programDirs, resolveOnPath } from './which.js';
export { REFUSAL_ID, REFUSAL_PREFIX, RefusalWatcher } from './refusals.js';
export { outerBoxCommand, type OuterBox } from './outer-box.js';
