// Reads a recorded CLI transcript from ./fixtures and replays it through a translator.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseJsonLine, type Json } from '../../../src/adapters/json-fields.js';
import type { AgentEvent } from '../../../src/core/types.js';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

export function sampleLines(name: string): Json[] {
  return readFileSync(path.join(FIXTURES, name), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const json = parseJsonLine(l);
      if (!json) throw new Error(`${name}: not a JSON object line: ${l.slice(0, 80)}`);
      return json;
    });
}

export function replay<S>(name: string, state: S, translate: (line: Json, state: S) => AgentEvent[]): AgentEvent[] {
  return sampleLines(name).flatMap((line) => translate(line, state));
}
