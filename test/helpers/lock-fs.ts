import * as fsPromises from 'node:fs/promises';
import type { LockFs } from '../../src/store/held-folder.js';

type Name = keyof LockFs;
const NAMES: Name[] = [
  'mkdir',
  'readFile',
  'readdir',
  'rename',
  'rm',
  'rmdir',
  'stat',
  'unlink',
  'utimes',
  'writeFile',
];

/** A file system error as node gives it: a message and a code. */
export const fsError = (code: string) => Object.assign(new Error(`${code}: injected`), { code });

/**
 * The lock's file system calls, recorded (`"<call> <first path>"`) and passed on to node's, except those `faults`
 * answers: a fault gets the call's arguments and node's own call, so it can fail, race or pass on.
 */
export function lockFs(faults: {
  [K in Name]?: (args: Parameters<LockFs[K]>, real: LockFs[K]) => ReturnType<LockFs[K]>;
}) {
  const calls: string[] = [];
  const fs = {} as Record<Name, (...args: unknown[]) => Promise<unknown>>;
  for (const name of NAMES) {
    const real = fsPromises[name] as (...args: unknown[]) => Promise<unknown>;
    const fault = faults[name] as ((args: unknown[], real: unknown) => Promise<unknown>) | undefined;
    fs[name] = (...args) => {
      calls.push(`${name} ${String(args[0])}`);
      return fault ? fault(args, real) : real(...args);
    };
  }
  /** How many calls of `name` were made, on `path` when given. */
  const count = (name: Name, path?: string) =>
    calls.filter((c) => (path === undefined ? c.startsWith(`${name} `) : c === `${name} ${path}`)).length;
  return { fs: fs as unknown as LockFs, calls, count };
}
