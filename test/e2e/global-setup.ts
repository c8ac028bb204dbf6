/**
 * vitest globalSetup for the end-to-end tests: installs the pinned real CLIs into the cache dir (once; reused
 * afterwards) and provides the result to the tests as `inject('agentCollabE2eClis')`.
 *
 * When the install fails (typically: no network on a first run) the e2e tests are skipped with that reason and a
 * warning is printed; set AGENT_COLLAB_E2E_REQUIRED=1 to make the failure fail the run instead.
 */
import type { TestProject } from 'vitest/node';
import { installE2eClis } from './install.js';

export default async function setup(project: TestProject): Promise<void> {
  const clis = await installE2eClis();
  project.provide('agentCollabE2eClis', clis);
  if (!clis.ok) {
    const message = `agent-collab e2e: the real CLIs could not be installed, e2e tests will be skipped: ${clis.reason}`;
    if (process.env.AGENT_COLLAB_E2E_REQUIRED === '1') throw new Error(message);
    process.stderr.write(`\n${message}\n\n`);
  }
}
