import { describe, expect, it } from 'vitest';
import { HELD_CA_CERTS_ENV, restoreHeldCaCerts } from '../../src/held-ca-certs.js';

describe('NODE_EXTRA_CA_CERTS held by bin/agent-collab', () => {
  it('is put back under its own name, and the holding variable goes', () => {
    const env: NodeJS.ProcessEnv = { [HELD_CA_CERTS_ENV]: '/etc/corp/ca.pem', PATH: '/bin' };
    restoreHeldCaCerts(env);
    expect(env).toEqual({ NODE_EXTRA_CA_CERTS: '/etc/corp/ca.pem', PATH: '/bin' });
  });

  it('keeps a variable that was set but empty', () => {
    const env: NodeJS.ProcessEnv = { [HELD_CA_CERTS_ENV]: '' };
    restoreHeldCaCerts(env);
    expect(env).toEqual({ NODE_EXTRA_CA_CERTS: '' });
  });

  it('changes nothing when nothing was held (node dist/cli.js, or the variable was unset)', () => {
    const env: NodeJS.ProcessEnv = { NODE_EXTRA_CA_CERTS: '/x.pem' };
    restoreHeldCaCerts(env);
    expect(env).toEqual({ NODE_EXTRA_CA_CERTS: '/x.pem' });
  });
});
