/**
 * Setup file of the unit project: unit tests are pure, so starting a process or opening a socket throws.
 * A test that needs one belongs in test/integration. Patching the builtin modules (and syncing their ESM
 * exports) also catches calls made through packages such as execa.
 */
import childProcess from 'node:child_process';
import { afterEach, vi } from 'vitest';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import http from 'node:http';
import https from 'node:https';

function forbid(what: string): () => never {
  return () => {
    throw new Error(`unit tests are pure: ${what} is not allowed here — move this test to test/integration`);
  };
}

const patch = (mod: object, label: string, names: string[]): void => {
  for (const name of names)
    Object.defineProperty(mod, name, { value: forbid(`${label}.${name}`), writable: true, configurable: true });
};

patch(childProcess, 'child_process', ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']);
patch(net, 'net', ['connect', 'createConnection', 'createServer']);
patch(http, 'http', ['request', 'get', 'createServer']);
patch(https, 'https', ['request', 'get', 'createServer']);
syncBuiltinESMExports();

// The unit files share their worker's modules and globals: a test that forgot its fake clock must not stop the next.
afterEach(() => {
  vi.useRealTimers();
});
