// Takes a project's write lock in a process of its own, as the server or a CLI run does, and writes
// `enter <pid> <ms>` / `leave <pid> <ms>` lines to a log around its hold. Arguments: the state folder
// (.folio), the log file, and how long to hold it in ms (-1: until killed; `loop`: take and give it back
// again and again, logging nothing, until killed; `exit`: exit while holding it). Prints `waiting` before
// it asks for the lock and `held` once it has it.
import { appendFileSync } from 'node:fs';
import { WriteLock } from '../../dist/store/write-lock.js';

const [stateDir, log, holdMs] = process.argv.slice(2);
const lock = new WriteLock(stateDir);
const mark = (what) => appendFileSync(log, `${what} ${process.pid} ${Date.now()}\n`);
process.stdout.write('waiting\n');
if (holdMs === 'exit') await lock.run(async () => process.exit(0));
if (holdMs === 'loop') {
  await lock.run(async () => process.stdout.write('held\n'));
  for (;;) await lock.run(async () => undefined);
}
await lock.run(async () => {
  mark('enter');
  process.stdout.write('held\n');
  if (Number(holdMs) < 0) await new Promise(() => setInterval(() => undefined, 60_000));
  await new Promise((r) => setTimeout(r, Number(holdMs)));
  mark('leave');
});
