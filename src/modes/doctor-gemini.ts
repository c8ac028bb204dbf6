// `doctor`'s extra line for the Gemini CLI: how it reaches a model, and that agent-collab boxes it (gemini's own
// `--sandbox` needs docker/podman/sandbox-exec; agent-collab does not use it).
import type { Check } from './doctor.js';

export function geminiModelCheck(env: NodeJS.ProcessEnv, sandbox: 'on' | 'off'): Check {
  const box =
    sandbox === 'on'
      ? "runs whole inside agent-collab's bubblewrap box on every turn"
      : 'runs unconfined ([safety] sandbox = "off")';
  const base = env.GOOGLE_GEMINI_BASE_URL ? ` at ${env.GOOGLE_GEMINI_BASE_URL} (GOOGLE_GEMINI_BASE_URL)` : '';
  if (env.GEMINI_API_KEY)
    return { name: 'gemini model', ok: true, detail: `Gemini API key from GEMINI_API_KEY${base}; ${box}` };
  if (env.GOOGLE_GENAI_USE_VERTEXAI === 'true' || env.GOOGLE_API_KEY)
    return { name: 'gemini model', ok: true, detail: `Vertex AI (GOOGLE_GENAI_USE_VERTEXAI / GOOGLE_API_KEY); ${box}` };
  return {
    name: 'gemini model',
    ok: true,
    detail: `no GEMINI_API_KEY: gemini uses the login in ~/.gemini/settings.json${base}; ${box}`,
    fix: 'export GEMINI_API_KEY=… (or run `gemini` once to log in)',
  };
}
