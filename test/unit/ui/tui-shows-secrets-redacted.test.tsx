// The TUI's text sources pass the redaction layer: agent messages, what the run waits for, and the file tabs.
import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { createRedactor } from '../../../src/core/redact.js';
import { App } from '../../../src/ui/App.js';
import { redactedEngine, redactedFiles } from '../../../src/ui/redacted-engine.js';
import { stateIn } from '../../helpers/states.js';
import { fakeFiles, FakeEngine, listening, sleep, waitFor } from './ui-helpers.js';

afterEach(() => cleanup());

const GH = `ghp_${'k3Jd9Qw2Lm'.repeat(3)}Zx81Pq`;
const ENV_VALUE = `q8Zr2${'Lw5Tn0Vx'}`;
const redactor = createRedactor([{ name: 'MY_SERVICE_TOKEN', value: ENV_VALUE }]);

async function renderRedacted(engine: FakeEngine, plan: string | null = null) {
  const r = render(
    <App engine={redactedEngine(engine, redactor)} files={redactedFiles(fakeFiles({ plan }), redactor)} tickMs={0} />,
  );
  await listening(r.stdin);
  return { ...r, frame: () => r.lastFrame() ?? '' };
}

describe('the TUI shows secrets redacted', () => {
  it('an agent message with a token and the value of a secret variable', async () => {
    const engine = new FakeEngine(stateIn('EXECUTE', {}));
    const r = await renderRedacted(engine);
    engine.emit({
      type: 'agent_event',
      role: 'planner',
      event: { type: 'text', text: `token ${GH}, env ${ENV_VALUE}` },
    });
    await waitFor(() => expect(r.frame()).toContain('token [REDACTED:github-token], env [REDACTED:MY_SERVICE_TOKEN]'));
    expect(r.frame()).not.toContain(GH);
    expect(r.frame()).not.toContain(ENV_VALUE);
  });

  it("an agent's question, shown from the state it waits in", async () => {
    const engine = new FakeEngine(stateIn('REVIEW', {}));
    const r = await renderRedacted(engine);
    engine.set({
      awaiting: { kind: 'question', role: 'planner', text: `Use ${GH} for the API?`, action: { kind: 'write_plan' } },
    });
    await waitFor(() => expect(r.frame()).toContain('Use [REDACTED:github-token] for the API?'));
    expect(r.frame()).not.toContain(GH);
  });

  it('the Plan tab', async () => {
    const engine = new FakeEngine(stateIn('EXECUTE', {}));
    const r = await renderRedacted(engine, `# Task\n\nCall it with ${GH}\n`);
    r.stdin.write('2');
    await sleep(5);
    await waitFor(() => expect(r.frame()).toContain('Call it with [REDACTED:github-token]'));
    expect(r.frame()).not.toContain(GH);
  });

  it('the engine keeps the real values: only the view is redacted', () => {
    const engine = new FakeEngine(stateIn('REFINE_GOAL', { goal: `deploy with ${GH}` }));
    expect(redactedEngine(engine, redactor).state.goal).toBe('deploy with [REDACTED:github-token]');
    expect(engine.state.goal).toBe(`deploy with ${GH}`);
  });
});
