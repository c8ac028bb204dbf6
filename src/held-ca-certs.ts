// bin/agent-collab starts Node without NODE_EXTRA_CA_CERTS (Node 20 parses the whole bundle at every start, and
// agent-collab's own process opens no TLS connection) and passes its value on in AGENT_COLLAB_HELD_NODE_EXTRA_CA_CERTS.
// Imported first by cli.ts: the variable is back before anything runs, so every process agent-collab starts (the
// CLIs, which do need it, their hooks, test commands, git) inherits it unchanged. A process of agent-collab's own
// that made TLS connections would not have the extra certificates: start it with the variable set, as the CLIs are.
export const HELD_CA_CERTS_ENV = 'AGENT_COLLAB_HELD_NODE_EXTRA_CA_CERTS';

export function restoreHeldCaCerts(env: NodeJS.ProcessEnv = process.env): void {
  const held = env[HELD_CA_CERTS_ENV];
  if (held === undefined) return;
  env.NODE_EXTRA_CA_CERTS = held;
  delete env[HELD_CA_CERTS_ENV];
}

restoreHeldCaCerts();
