// The unit tier stays pure: its setup file (test/unit/setup-pure.ts) makes processes and sockets throw, also when
// a package such as execa starts them.
import { execFileSync, spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

const PURE = /unit tests are pure: .* move this test to test\/integration/;

describe('the unit tier', () => {
  it('cannot start a process, directly or through execa', async () => {
    expect(() => spawn('true')).toThrow(PURE);
    expect(() => execFileSync('true')).toThrow(PURE);
    await expect(execa('true')).rejects.toThrow(PURE);
  });

  it('cannot open or serve a socket', () => {
    expect(() => net.connect(1)).toThrow(PURE);
    expect(() => net.createServer()).toThrow(PURE);
    expect(() => http.request('http://127.0.0.1:1')).toThrow(PURE);
  });
});
