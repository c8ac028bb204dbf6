import path from 'node:path';
import type { Config } from './config-schema.js';

/** Absolute locations of everything agent-collab keeps on disk for one repo. */
export interface Paths {
  repoRoot: string;
  workdir: string;
  state: string;
  plan: string;
  comments: string;
  log: string;
  debugLog: string;
  history: string;
  runs: string;
  /** Prompt templates here override the built-in ones. */
  promptsOverride: string;
  /** The project config is always `<repoRoot>/.agent-collab/config.toml`, even when paths.workdir moves the rest. */
  configFile: string;
}

/** `paths.workdir` is relative to the repo root (or absolute); the file names are relative to the workdir. */
export function resolvePaths(repoRoot: string, config: Config): Paths {
  const root = path.resolve(repoRoot);
  const workdir = path.resolve(root, config.paths.workdir);
  const inWorkdir = (name: string) => path.resolve(workdir, name);
  return {
    repoRoot: root,
    workdir,
    state: inWorkdir('state.json'),
    plan: inWorkdir(config.paths.plan),
    comments: inWorkdir(config.paths.comments),
    log: inWorkdir(config.paths.log),
    debugLog: inWorkdir(config.paths.debug_log),
    history: inWorkdir('history'),
    runs: inWorkdir('runs'),
    promptsOverride: inWorkdir('prompts'),
    configFile: path.join(root, '.agent-collab', 'config.toml'),
  };
}
