// The rules of the built-in default config (config-schema.ts), so the tests prove behaviour "under the default config".
import { configSchema } from '../../../src/persistence/config-schema.js';
import type { PolicyRules } from '../../../src/core/policy/index.js';

const safety = configSchema.parse({}).safety;

export const DEFAULT_RULES: PolicyRules = { blocked: safety.blocked_commands, confirm: safety.require_confirm_for };
