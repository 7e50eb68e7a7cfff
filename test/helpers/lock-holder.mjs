// Takes a project's write lock in a process of its own, as the server or a CLI run does, and writes
// `enter <pid> <ms>` / `leave <pid> <ms>` lines to a log around its hold. Arguments: the state folder
// (.folio), the log file, and how long to hold it in ms (-1: until killed). Prints `waiting` before it asks
// for the lock and `held` once it has it.
import { appendFileSync } from 'node:fs';
import { WriteLock } from '../../dist/store/write-lock.js';

const [stateDir, log, holdMs] = process.argv.slice(2);
const mark = (what) => appendFileSync(log, `${what} ${process.pid} ${Date.now()}\n`);
process.stdout.write('waiting\n');
await new WriteLock(stateDir).run(async () => {
  mark('enter');
  process.stdout.write('held\n');
  if (Number(holdMs) < 0) await new Promise(() => setInterval(() => undefined, 60_000));
  await new Promise((r) => setTimeout(r, Number(holdMs)));
  mark('leave');
});
