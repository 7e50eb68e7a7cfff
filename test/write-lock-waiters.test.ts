import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lockHolders } from './helpers/lock-holders.js';
import { eventually } from './helpers/eventually.js';
import { LOCK_HOST } from '../src/store/held-folder.js';
import { removeOwnMarkers } from '../src/store/lock-waiters.js';
import { WriteLock } from '../src/store/write-lock.js';

/**
 * A steady stream of writes gives the write lock back only to another process that is waiting for it: with
 * nobody waiting, the process keeps it (the lock folder's holder file stays the same) and its writes are never
 * paused; a waiter killed while it waited, or one silent for long, does not count.
 */

/** Several times the lock's MAX_HOLD_MS, so that a holder giving the lock back on a timer does so. */
const STREAM_MS = 1200;
const { temp, start } = lockHolders('folio-lock-waiters-');
const tick = () => new Promise((r) => setTimeout(r, 2));

/** Three writes always in flight for STREAM_MS; answers the holder files the lock folder named during them. */
async function stream(lock: WriteLock, stateDir: string): Promise<Set<string>> {
  const holders = new Set<string>();
  const started = Date.now();
  const lane = async () => {
    while (Date.now() - started < STREAM_MS)
      await lock.run(async () => {
        for (const name of readdirSync(join(stateDir, 'locks', 'documents.lock'))) holders.add(name);
        await tick();
      });
  };
  await Promise.all([lane(), lane(), lane()]);
  return holders;
}

/** A write of `lock` under way until `end()`: resolves once it holds the lock. */
async function holding(lock: WriteLock): Promise<{ end: () => void; done: Promise<void> }> {
  let end!: () => void;
  const ends = new Promise<void>((r) => (end = r));
  let started!: () => void;
  const holds = new Promise<void>((r) => (started = r));
  const done = lock.run(async () => {
    started();
    await ends;
  });
  await holds;
  return { end, done };
}

/** Puts a marker beside the lock by hand, `agoMs` old. */
function marker(stateDir: string, name: string, text: string, agoMs = 0) {
  const folder = join(stateDir, 'locks', 'documents.waiting');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, name), text);
  const at = new Date(Date.now() - agoMs);
  utimesSync(join(folder, name), at, at);
}

const markers = (stateDir: string) => {
  const folder = join(stateDir, 'locks', 'documents.waiting');
  return existsSync(folder) ? readdirSync(folder) : [];
};

describe('a steady stream of writes with nobody waiting', () => {
  it('keeps the lock throughout: one holder, never given back and taken again', async () => {
    const stateDir = join(temp, 'alone');
    const holders = await stream(new WriteLock(stateDir), stateDir);
    expect([...holders]).toHaveLength(1);
    expect(markers(stateDir)).toEqual([]);
  });
});

describe('a waiter that is gone', () => {
  it('killed while it waited: its marker does not make the holder give the lock back, and is removed', async () => {
    const stateDir = join(temp, 'killed');
    const lock = new WriteLock(stateDir);
    let end!: () => void;
    const ends = new Promise<void>((r) => (end = r));
    let started!: () => void;
    const holding = new Promise<void>((r) => (started = r));
    const held = lock.run(async () => {
      started();
      await ends;
    });
    await holding;
    const child = start([stateDir, join(temp, 'killed.log'), '0'], 'ignore');
    const exited = new Promise((resolve) => child.once('exit', resolve));
    // Whole: a marker caught half-written counts as a waiter's (see below), which a killed one no longer is.
    const written = () =>
      markers(stateDir).some((name) => readFileSync(join(stateDir, 'locks', 'documents.waiting', name), 'utf8'));
    await eventually(written, 'the waiting process announces itself');
    child.kill('SIGKILL');
    // Waited on, so the process is reaped and its pid is gone.
    await exited;
    end();
    await held;
    expect(markers(stateDir)).toHaveLength(1);
    const holders = await stream(lock, stateDir);
    expect([...holders]).toHaveLength(1);
    expect(markers(stateDir)).toEqual([]);
  }, 30_000);

  it('silent for long (frozen, or of another host): its marker does not make the holder give it back', async () => {
    const stateDir = join(temp, 'silent');
    const folder = join(stateDir, 'locks', 'documents.waiting');
    mkdirSync(folder, { recursive: true });
    const marker = join(folder, 'waiter-silent');
    writeFileSync(marker, JSON.stringify({ pid: process.pid, host: `${LOCK_HOST} elsewhere` }));
    const past = new Date(Date.now() - 10_000);
    utimesSync(marker, past, past);
    const holders = await stream(new WriteLock(stateDir), stateDir);
    expect([...holders]).toHaveLength(1);
    // Not yet older than any wait: left in place.
    expect(markers(stateDir)).toEqual(['waiter-silent']);
  });

  it('left for longer than any wait, of a process that may be alive: removed', async () => {
    const stateDir = join(temp, 'leftover');
    marker(stateDir, 'waiter-leftover', JSON.stringify({ pid: process.pid, host: `${LOCK_HOST} elsewhere` }), 120_000);
    const holders = await stream(new WriteLock(stateDir), stateDir);
    expect([...holders]).toHaveLength(1);
    expect(markers(stateDir)).toEqual([]);
  });
});

describe('the files beside the lock that the holder reads as waiters', () => {
  it('a stray file (a .DS_Store) is no waiter: the lock is kept, and the file left alone', async () => {
    const stateDir = join(temp, 'stray');
    marker(stateDir, '.DS_Store', 'not a marker');
    const holders = await stream(new WriteLock(stateDir), stateDir);
    expect([...holders]).toHaveLength(1);
    expect(markers(stateDir)).toEqual(['.DS_Store']);
  });

  it('a fresh marker caught half-written (unreadable) counts: the lock is given back', async () => {
    const stateDir = join(temp, 'half-written');
    marker(stateDir, 'waiter-half', '{"pid":');
    const holders = await stream(new WriteLock(stateDir), stateDir);
    expect(holders.size).toBeGreaterThan(1);
  });
});

describe('a process that waits', () => {
  it('announces itself while it waits, and withdraws once it holds the lock', async () => {
    const stateDir = join(temp, 'waits');
    const server = new WriteLock(stateDir);
    const cli = new WriteLock(stateDir);
    let end!: () => void;
    const ends = new Promise<void>((r) => (end = r));
    let started!: () => void;
    const holding = new Promise<void>((r) => (started = r));
    const held = server.run(async () => {
      started();
      await ends;
    });
    await holding;
    const waiting = cli.run(async () => markers(stateDir));
    await eventually(() => markers(stateDir).length === 1, 'the waiting writer announces itself');
    end();
    await held;
    expect(await waiting).toEqual([]);
  });
});

describe('a process that waits', () => {
  it('names itself in its marker, so that a holder can tell once it has died', async () => {
    const stateDir = join(temp, 'names');
    const server = await holding(new WriteLock(stateDir));
    const waiting = new WriteLock(stateDir).run(async () => undefined);
    await eventually(() => markers(stateDir).length === 1, 'the waiting writer announces itself');
    const [name] = markers(stateDir);
    const text = readFileSync(join(stateDir, 'locks', 'documents.waiting', name!), 'utf8');
    expect(JSON.parse(text)).toEqual({ pid: process.pid, host: LOCK_HOST });
    server.end();
    await Promise.all([server.done, waiting]);
  });

  it('announces itself again each time it waits, and puts back a marker removed while it waits', async () => {
    const stateDir = join(temp, 'again');
    const server = new WriteLock(stateDir);
    const cli = new WriteLock(stateDir);
    for (const round of [1, 2]) {
      const held = await holding(server);
      const waiting = cli.run(async () => undefined);
      await eventually(() => markers(stateDir).length === 1, `the waiting writer announces itself (${round})`);
      if (round === 2) {
        // As the holder does with a marker left untouched for long (the waiter was frozen).
        rmSync(join(stateDir, 'locks', 'documents.waiting', markers(stateDir)[0]!));
        await eventually(() => markers(stateDir).length === 1, 'the waiting writer puts its marker back');
      }
      held.end();
      await Promise.all([held.done, waiting]);
      expect(markers(stateDir)).toEqual([]);
    }
  });

  it('leaves no marker when it exits while it waits', async () => {
    const stateDir = join(temp, 'exits');
    const server = await holding(new WriteLock(stateDir));
    const waiting = new WriteLock(stateDir).run(async () => undefined);
    await eventually(() => markers(stateDir).length === 1, 'the waiting writer announces itself');
    // What the process runs as it exits.
    removeOwnMarkers();
    expect(markers(stateDir)).toEqual([]);
    server.end();
    await Promise.all([server.done, waiting]);
  });

  it('for longer than a marker stays fresh keeps it fresh, and gets its turn before a later stream ends', async () => {
    const stateDir = join(temp, 'long-wait');
    const server = new WriteLock(stateDir);
    const cli = new WriteLock(stateDir);
    let cliRan = false;
    let streamOver = false;
    const lane = async () => {
      const began = Date.now();
      while (!cliRan && Date.now() - began < 3 * STREAM_MS) await server.run(tick);
    };
    const long = await holding(server);
    const waiting = cli.run(async () => {
      cliRan = true;
      return streamOver;
    });
    await eventually(() => markers(stateDir).length === 1, 'the waiting writer announces itself');
    // One write held past FRESH_MS (3 s) with nothing joining it: the holder has not looked for waiters yet.
    await new Promise((r) => setTimeout(r, 3500));
    const lanes = [lane(), lane(), lane()];
    long.end();
    await long.done;
    const streamed = Promise.all(lanes).then(() => void (streamOver = true));
    expect(await waiting).toBe(false);
    await streamed;
  }, 30_000);
});
