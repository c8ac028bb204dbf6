// Child process for instance-lock.test.ts: takes the lock, says "locked", then either holds it until killed
// or ("release") lets it go and relies on nothing keeping the event loop alive.
import { acquireInstanceLock } from '../../../src/persistence/instance-lock.js';

const [workdir, then] = process.argv.slice(2);
const release = await acquireInstanceLock(workdir ?? '.');
process.stdout.write('locked\n');
if (then === 'release') {
  await release();
  process.stdout.write('released\n');
} else {
  setInterval(() => undefined, 1000);
}
