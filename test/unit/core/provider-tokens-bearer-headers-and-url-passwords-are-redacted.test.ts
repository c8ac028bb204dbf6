// The gemini and opencode adapters bring providers whose keys agent-collab's redactor did not know (Hugging Face,
// Groq, xAI, GitLab, npm), and agents print `Authorization: Bearer …` headers and `scheme://user:password@host` URLs
// (a curl command, a DATABASE_URL from a `.env` they read). Each is hidden in what agent-collab writes; look-alikes
// (a URL without a password, a placeholder, a bearer word) stay.
import { describe, expect, it } from 'vitest';
import { redactText } from '../../../src/core/redact.js';

// Built from pieces so that this file holds nothing a secret scanner would flag.
const HF = `hf_${'AbCdEfGhIj'.repeat(3)}Kl9m`;
const GROQ = `gsk_${'Q1w2E3r4T5y6U7i8'.repeat(3)}Zx`;
const XAI = `xai-${'P9o8I7u6Y5t4R3e2W1q0'.repeat(4)}`;
const GITLAB = `glpat-${'Zq8xYp3LmN7vTr2KsW9d'}`;
const NPM = `npm_${'aB3dE5gH7jK9mN1pQ3sT'}${'5vX7zA9cE1gI3kM5'}`;
const BEARER = `${'9f8a7b6c5d4e3f2a'}${'1b0c9d8e7f6a5b4c'}`;

describe('redactText: provider keys, bearer headers, passwords in URLs', () => {
  it.each([
    [HF, 'huggingface-token'],
    [GROQ, 'groq-key'],
    [XAI, 'xai-key'],
    [GITLAB, 'gitlab-token'],
    [NPM, 'npm-token'],
  ])('hides %s as [REDACTED:%s], also as a variable’s value', (token, tag) => {
    expect(redactText(`the agent printed ${token} here`)).toBe(`the agent printed [REDACTED:${tag}] here`);
    expect(redactText(`export SOME_TOKEN=${token}`)).toBe(`export SOME_TOKEN=[REDACTED:${tag}]`);
  });

  it('hides the credential of an Authorization header, in a command and in JSON text', () => {
    expect(redactText(`curl -H "Authorization: Bearer ${BEARER}" https://api.example.com`)).toBe(
      'curl -H "Authorization: Bearer [REDACTED:bearer-token]" https://api.example.com',
    );
    const json = JSON.stringify({ command: `curl -H 'authorization: bearer ${BEARER}'` });
    expect(redactText(json)).not.toContain(BEARER);
    expect(JSON.parse(redactText(json))).toEqual({
      command: "curl -H 'authorization: bearer [REDACTED:bearer-token]'",
    });
  });

  it('hides the password of a URL, keeping the user and host', () => {
    expect(redactText('DATABASE_URL=postgres://admin:' + 'hunter2hunter2@db.local:5432/app')).toBe(
      'DATABASE_URL=postgres://admin:[REDACTED:url-password]@db.local:5432/app',
    );
    expect(redactText('git clone https://oauth2:' + `${GITLAB}@gitlab.com/me/repo.git`)).not.toContain(GITLAB);
  });

  it('hides a key-named value that is a word prefix and a random body (a provider it does not know)', () => {
    const value = `live_${'9fK2mZq8xYp3LmN7vTr2'}`;
    expect(redactText(`PAYMENTS_API_KEY=${value}`)).toBe('PAYMENTS_API_KEY=[REDACTED:secret]');
    expect(redactText('SESSION_TOKEN_NAME=refresh_token_v2')).toBe('SESSION_TOKEN_NAME=refresh_token_v2');
  });

  it.each([
    'https://example.com/path?x=1',
    'ssh://git@github.com/me/repo.git',
    'postgres://user:${DB_PASSWORD}@localhost/db',
    'postgres://user:<password>@localhost/db',
    'Authorization: Bearer <token>',
    'Authorization: Bearer $TOKEN',
    'the bearer token is sent in the Authorization header',
    'http://localhost:8080/api',
  ])('leaves the look-alike %s as it is', (text) => {
    expect(redactText(text)).toBe(text);
  });
});
