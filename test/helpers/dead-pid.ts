import { spawn } from 'node:child_process';

let deadOnce: Promise<number> | undefined;
/** The pid of a process that has run and exited (one per test file: pids are not reused within seconds). */
export function deadPid(): Promise<number> {
  deadOnce ??= new Promise((resolve) => {
    const child = spawn(process.execPath, ['-e', '']);
    child.once('exit', () => resolve(child.pid!));
  });
  return deadOnce;
}
