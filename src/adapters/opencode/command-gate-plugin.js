// agent-collab's command gate for opencode, loaded through the `plugin` entry of the config agent-collab gives it
// (OPENCODE_CONFIG_CONTENT). Before every `bash` tool call it runs agent-collab's PreToolUse hook command (the one
// claude and codex run) with the call as JSON on stdin, and throws unless the hook answers "allow": a throw in
// `tool.execute.before` makes opencode fail the call without running it (measured on 1.18.33). Fails CLOSED: no
// hook, a hook that times out, exits non-zero or prints no decision, is a deny.
import { spawn } from 'node:child_process';
import { clearTimeout, setTimeout } from 'node:timers';

function decisionOf(stdout) {
  for (const line of stdout.split('\n').reverse()) {
    if (!line.trim().startsWith('{')) continue;
    try {
      const out = JSON.parse(line).hookSpecificOutput;
      if (out && (out.permissionDecision === 'allow' || out.permissionDecision === 'deny'))
        return { allow: out.permissionDecision === 'allow', reason: String(out.permissionDecisionReason ?? '') };
    } catch {
      // not JSON
    }
  }
  return null;
}

function askHook(command, cwd, sessionId, callId) {
  const hook = process.env.AGENT_COLLAB_OPENCODE_HOOK;
  if (!hook) return Promise.resolve({ allow: false, reason: 'agent-collab gave opencode no command hook' });
  const timeoutMs = Number(process.env.AGENT_COLLAB_OPENCODE_HOOK_TIMEOUT_SECONDS || '60') * 1000;
  const input = {
    session_id: sessionId ?? 'opencode',
    cwd,
    hook_event_name: 'PreToolUse',
    permission_mode: 'default',
    tool_name: 'Bash',
    tool_input: { command },
    tool_use_id: callId ?? null,
  };
  return new Promise((resolve) => {
    let stdout = '';
    let settled = false;
    const done = (v) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(v);
    };
    const child = spawn('sh', ['-c', hook], { cwd, env: process.env, stdio: ['pipe', 'pipe', 'ignore'] });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      done({ allow: false, reason: 'the command hook did not answer in time' });
    }, timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stdin.on('error', () => undefined);
    child.stdin.end(JSON.stringify(input));
    child.on('error', (err) =>
      done({ allow: false, reason: `the command hook could not be started (${err.message})` }),
    );
    child.on('close', (code) => {
      const decision = code === 0 ? decisionOf(stdout) : null;
      done(
        decision ?? {
          allow: false,
          reason: `the command hook ${code === 0 ? 'printed no decision' : `exited with code ${code}`}`,
        },
      );
    });
  });
}

// The calls this plugin approved and whose shell has not started yet. opencode runs bash commands through
// agent-collab's gate shell (config `shell`), which refuses to run anything unless `shell.env` (below) handed it
// this turn's pass: a command can only run after this plugin approved it, so the gate holds even if opencode
// failed to load this plugin (it then logs the error and goes on without it).
const approved = new Set();

export const AgentCollabCommandGate = async ({ directory }) => ({
  'tool.execute.before': async (input, output) => {
    if (input.tool !== 'bash') return;
    const args = output.args ?? {};
    const command = typeof args.command === 'string' ? args.command : '';
    const cwd = typeof args.workdir === 'string' && args.workdir ? args.workdir : directory;
    const verdict = await askHook(command, cwd, input.sessionID, input.callID);
    if (!verdict.allow) throw new Error(`agent-collab denied this command: ${verdict.reason || 'denied by policy'}`);
    if (input.callID) approved.add(input.callID);
  },
  'shell.env': async (input, output) => {
    const token = process.env.AGENT_COLLAB_OPENCODE_GATE_TOKEN;
    if (!token || !input.callID || !approved.delete(input.callID)) return;
    (output.env ??= {}).AGENT_COLLAB_OPENCODE_GATE_PASS = token;
  },
});
