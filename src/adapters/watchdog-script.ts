// The watchdog's program, run as `node -e WATCHDOG_SCRIPT <tag> <env name>` (see owned-processes.ts). Plain
// CommonJS in a string so it needs no file on disk (the bundle, the sources under test and an installed package
// all start it the same way). On stdin: `+<pgid> <grace ms>` when a group starts, `-<pgid>` when it is gone.
// At EOF (agent-collab exited or was killed): SIGTERM to the groups with a grace (git: it removes its lock files),
// SIGKILL to the others and to every process whose environment carries the tag; after the longest grace, SIGKILL
// to all that is left, repeated while tagged processes still turn up (one may have forked meanwhile).
export const WATCHDOG_SCRIPT = String.raw`
'use strict';
const fs = require('node:fs');
const [tag, envName] = process.argv.slice(1);
const marker = envName + '=' + tag;
const groups = new Map();
// The terminal's signals are agent-collab's, not the watchdog's: it lives until agent-collab is gone.
for (const s of ['SIGINT', 'SIGHUP', 'SIGPIPE']) process.on(s, () => {});
const kill = (pid, sig) => { try { process.kill(pid, sig); return true; } catch { return false; } };
const pids = () => { try { return fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n)).map(Number); } catch { return []; } };
const stat = (pid) => {
  try {
    const s = fs.readFileSync('/proc/' + pid + '/stat', 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return { state: f[0], pgrp: Number(f[2]) };
  } catch { return null; }
};
const tagged = () => pids().filter((pid) => {
  if (pid === process.pid) return false;
  try { return fs.readFileSync('/proc/' + pid + '/environ', 'latin1').split('\0').includes(marker); } catch { return false; }
});
const groupAlive = (pgid) => kill(-pgid, 0) && pids().some((pid) => { const s = stat(pid); return s !== null && s.pgrp === pgid && s.state !== 'Z'; });
let buf = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => {
  buf += d;
  let i;
  while ((i = buf.indexOf('\n')) >= 0) {
    const m = /^([+-])(\d+)(?: (\d+))?$/.exec(buf.slice(0, i));
    buf = buf.slice(i + 1);
    if (!m || Number(m[2]) <= 1) continue;
    if (m[1] === '+') groups.set(Number(m[2]), Number(m[3] || 0));
    else groups.delete(Number(m[2]));
  }
});
let reaping = false;
const reap = () => {
  if (reaping) return;
  reaping = true;
  const graced = new Set();
  let grace = 0;
  for (const [pgid, ms] of groups) {
    if (ms > 0) { kill(-pgid, 'SIGTERM'); graced.add(pgid); grace = Math.max(grace, ms); }
    else kill(-pgid, 'SIGKILL');
  }
  for (const pid of tagged()) { const s = stat(pid); if (s === null || !graced.has(s.pgrp)) kill(pid, 'SIGKILL'); }
  const deadline = Date.now() + grace;
  const wait = () => {
    if (Date.now() < deadline && [...graced].some(groupAlive)) return setTimeout(wait, 50);
    finish(0);
  };
  wait();
};
const finish = (round) => {
  for (const pgid of groups.keys()) kill(-pgid, 'SIGKILL');
  const left = tagged().filter((pid) => { const s = stat(pid); return s !== null && s.state !== 'Z'; });
  for (const pid of left) kill(pid, 'SIGKILL');
  if (left.length > 0 && round < 40) return setTimeout(() => finish(round + 1), 50);
  process.exit(0);
};
process.stdin.on('end', reap);
process.stdin.on('error', reap);
`;
