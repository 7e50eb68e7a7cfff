import { describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import {
  type FSWatcher,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  utimesSync,
  watch,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { makeProject } from './helpers/project.js';
import { lockHolders } from './helpers/lock-holders.js';
import { openProject } from '../src/project.js';
import { HeldFolder, LOCK_HOST } from '../src/store/held-folder.js';
import { WriteLock } from '../src/store/write-lock.js';
import { deadPid } from './helpers/dead-pid.js';

/**
 * The project's write lock names its holder: a holder of this host that has died (a `folio` run killed
 * mid-write) is taken over at once, not after the 5 s stale wait, and by one waiter only; a live holder,
 * a frozen one and one of another host keep it until it goes stale.
 */
const STALE_MS = 5000;
const { temp, start } = lockHolders('folio-lock-');

/** Starts lock-holder.mjs; resolves once it printed `line` (`waiting` or `held`). */
function holder(stateDir: string, log: string, holdMs: number | 'loop' | 'exit', line: 'waiting' | 'held') {
  const child = start([stateDir, log, String(holdMs)], ['ignore', 'pipe', 'pipe']);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.split('\n').includes(line)) resolve();
    });
    void exited.then((code) => reject(new Error(`lock holder exited (${code}) before "${line}": ${err}`)));
  });
  return { child, exited, ready };
}

async function kill(child: ChildProcess, exited: Promise<unknown>) {
  child.kill('SIGKILL');
  // Waited on, so the process is reaped and its pid is gone, not a zombie.
  await exited;
}

/**
 * The moments of its take-and-give-back loop at which a looping holder is killed: as it holds the lock, as
 * its folder made aside appears (taking it), as its holder file goes (giving it back: the folder is left
 * empty), and at a random one.
 */
const LOOP_MOMENTS = ['holding', 'taking', 'giving back', 'random'] as const;

/**
 * Kills `child` (SIGKILL) at `moment`, seen from the lock folders under `locks`; within 200 ms whatever comes.
 * Answers whether the kill came at a change watched for (not from the timer).
 */
function killAt(moment: (typeof LOOP_MOMENTS)[number], child: ChildProcess, locks: string): Promise<boolean> {
  return new Promise((resolve) => {
    const watchers: FSWatcher[] = [];
    let killed = false;
    const now = (seen: boolean) => {
      if (killed) return;
      killed = true;
      child.kill('SIGKILL');
      clearTimeout(timer);
      for (const w of watchers.splice(0)) w.close();
      resolve(seen);
    };
    const timer = setTimeout(() => now(false), moment === 'random' ? Math.random() * 50 : 200);
    const watchOn = (folder: string, kill: (name: string) => boolean) => {
      const w = watch(folder, (_event, name) => kill(String(name)) && now(true));
      w.on('error', () => undefined);
      watchers.push(w);
    };
    if (moment === 'holding') now(true);
    if (moment === 'taking') watchOn(locks, (name) => name.endsWith('.tmp'));
    // The lock folder comes and goes with each hold: watched once it is there, for its holder file going.
    const watchHeld = () => {
      if (killed) return;
      try {
        watchOn(join(locks, 'documents.lock'), (name) => name.startsWith('holder-'));
      } catch {
        setImmediate(watchHeld);
      }
    };
    if (moment === 'giving back') watchHeld();
  });
}

/** The lock log as [pid, enter, leave] intervals, one per hold. */
function holds(log: string): Array<{ pid: string; enter: number; leave: number }> {
  const lines = readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split(' '));
  return lines
    .filter(([what]) => what === 'enter')
    .map(([, pid, at]) => {
      const leave = lines.find(([what, p]) => what === 'leave' && p === pid);
      return { pid, enter: Number(at), leave: leave ? Number(leave[2]) : Infinity };
    });
}

/**
 * Dates the holder files under a lock folder an hour ahead: such a lock cannot go stale while a test runs, so
 * a write that gets it has taken it over from a holder it found dead (not by waiting the stale time out).
 */
function neverStale(folder: string) {
  const later = new Date(Date.now() + 3600_000);
  for (const name of existsSync(folder) ? readdirSync(folder) : []) {
    try {
      utimesSync(join(folder, name), later, later);
    } catch {
      // Taken over (moved aside) meanwhile.
    }
  }
}

/** A lock folder left by a holder, written as HeldFolder writes it, with its holder file dated `ageMs` ago. */
function leftLock(folder: string, who: { pid: number; host: string }, ageMs = 0) {
  mkdirSync(folder, { recursive: true });
  const file = join(folder, 'holder-left0behind0');
  writeFileSync(file, JSON.stringify(who));
  const at = new Date(Date.now() - ageMs);
  utimesSync(file, at, at);
}

describe('a write lock whose holder was killed', () => {
  it('is taken over at once by the next write of the project', async () => {
    const p = makeProject();
    try {
      const stateDir = join(p.dir, '.folio');
      const log = join(p.dir, 'lock.log');
      const held = holder(stateDir, log, -1, 'held');
      await held.ready;
      await kill(held.child, held.exited);
      expect(readdirSync(join(stateDir, 'locks', 'documents.lock'))).toHaveLength(1);
      neverStale(join(stateDir, 'locks', 'documents.lock'));

      const project = await openProject(p.dir);
      const created = await project.documents.create('article', { title: 'after the kill' });
      expect(created.data.title).toBe('after the kill');
    } finally {
      p.cleanup();
    }
  });

  it('is taken by one waiting process at a time, each after the other has left', async () => {
    const stateDir = join(temp, 'race', '.folio');
    const log = join(temp, 'race.log');
    const first = holder(stateDir, log, -1, 'held');
    await first.ready;
    // Several processes wait for the lock, then all find its holder dead at about the same moment.
    const waiters = Array.from({ length: 4 }, () => holder(stateDir, log, 50, 'waiting'));
    await Promise.all(waiters.map((w) => w.ready));
    const folder = join(stateDir, 'locks', 'documents.lock');
    // Dated ahead before the kill and again after it (the live holder touches its file): only the dead-holder rule
    // can let a waiter in.
    neverStale(folder);
    await kill(first.child, first.exited);
    neverStale(folder);
    expect(await Promise.all(waiters.map((w) => w.exited))).toEqual([0, 0, 0, 0]);

    const after = holds(log)
      .filter((h) => h.pid !== String(first.child.pid))
      .sort((a, b) => a.enter - b.enter);
    expect(after).toHaveLength(4);
    for (let i = 1; i < after.length; i++) expect(after[i].enter).toBeGreaterThanOrEqual(after[i - 1].leave);
  });

  it('is taken over at once whatever its holder was doing when killed, giving it back included', async () => {
    // Holders that take and give back the lock in a loop, killed at each moment of it in turn, on lanes side by side.
    let watchedKills = 0;
    const lane = async (k: number) => {
      const stateDir = join(temp, `loop-${k}`, '.folio');
      for (const moment of LOOP_MOMENTS) {
        const looping = holder(stateDir, join(temp, `loop-${k}.log`), 'loop', 'held');
        await looping.ready;
        const seen = await killAt(moment, looping.child, join(stateDir, 'locks'));
        if (seen && (moment === 'taking' || moment === 'giving back')) watchedKills++;
        await looping.exited;
        neverStale(join(stateDir, 'locks', 'documents.lock'));
        expect(await new WriteLock(stateDir).run(async () => moment)).toBe(moment);
      }
    };
    await Promise.all(Array.from({ length: 4 }, (_, k) => lane(k)));
    // The timer alone would leave taking and giving back untested.
    expect(watchedKills, 'kills as a holder took or gave back the lock').toBeGreaterThan(0);
  });

  it('is not left behind by a holder that exits while holding it', async () => {
    const stateDir = join(temp, 'exiting', '.folio');
    const exiting = holder(stateDir, join(temp, 'exiting.log'), 'exit', 'waiting');
    expect(await exiting.exited).toBe(0);
    expect(readdirSync(join(stateDir, 'locks'))).toEqual([]);
  });

  it('of several waiters that find the dead holder together, lets exactly one take it', async () => {
    const parent = join(temp, 'together');
    const folder = join(parent, 'documents.lock');
    const dead = await deadPid();
    // Rounds with the waiters started a few turns of the event loop apart, so that their steps interleave
    // in many orders: a late one reads the dead holder before the winner has put its own lock in place.
    // Waiter i starts (i * round) % 31 turns late: 31 rounds make every distinct set of delays.
    for (let round = 0; round < 31; round++) {
      leftLock(folder, { pid: dead, host: LOCK_HOST });
      const waiters = Array.from({ length: 5 }, () => new HeldFolder(folder, STALE_MS, () => undefined));
      const got = await Promise.all(
        waiters.map(async (w, i) => {
          for (let turn = 0; turn < (i * round) % 31; turn++) await new Promise((r) => setImmediate(r));
          return w.tryLock();
        }),
      );
      expect(got.filter(Boolean), `round ${round}`).toHaveLength(1);
      // The winner's lock is in place: the losers removed nothing of it.
      const names = readdirSync(folder);
      expect(names, `round ${round}`).toHaveLength(1);
      expect(JSON.parse(readFileSync(join(folder, names[0]), 'utf8'))).toEqual({ pid: process.pid, host: LOCK_HOST });
      expect(await waiters[0].tryLock()).toBeUndefined();
      await got.find(Boolean)!();
      expect(readdirSync(parent)).toEqual([]);
    }
  });
});

describe('a write lock whose holder may still be running', () => {
  it('is kept while its holder is alive, and taken once it has left', async () => {
    const stateDir = join(temp, 'live', '.folio');
    const log = join(temp, 'live.log');
    const first = holder(stateDir, log, 300, 'held');
    await first.ready;
    const second = holder(stateDir, log, 0, 'waiting');
    expect(await Promise.all([first.exited, second.exited])).toEqual([0, 0]);
    const [a, b] = holds(log).sort((x, y) => x.enter - y.enter);
    expect(a.pid).toBe(String(first.child.pid));
    expect(b.enter).toBeGreaterThanOrEqual(a.leave);
  });

  it('is kept from a frozen holder until it goes stale', async () => {
    const stateDir = join(temp, 'frozen', '.folio');
    const folder = join(stateDir, 'locks', 'documents.lock');
    const first = holder(stateDir, join(temp, 'frozen.log'), -1, 'held');
    await first.ready;
    first.child.kill('SIGSTOP');
    const waiter = new HeldFolder(folder, STALE_MS, () => undefined);
    expect(await waiter.tryLock()).toBeUndefined();
    // Its holder file as the frozen process last touched it, longer ago than the stale time.
    const [name] = readdirSync(folder);
    const old = new Date(Date.now() - STALE_MS - 1000);
    utimesSync(join(folder, name), old, old);
    const release = await waiter.tryLock();
    expect(release).toBeTypeOf('function');
    await release!();
    await kill(first.child, first.exited);
  });

  it('once taken over from a frozen holder, is not removed when that holder wakes and releases it', async () => {
    const folder = join(temp, 'woken', 'documents.lock');
    const frozen = new HeldFolder(folder, STALE_MS, () => undefined);
    const releaseFrozen = await frozen.tryLock();
    const [name] = readdirSync(folder);
    const old = new Date(Date.now() - STALE_MS - 1000);
    utimesSync(join(folder, name), old, old);
    const waiter = new HeldFolder(folder, STALE_MS, () => undefined);
    const release = await waiter.tryLock();
    expect(release).toBeTypeOf('function');
    await releaseFrozen!();
    expect(readdirSync(folder)).toHaveLength(1);
    expect(await frozen.tryLock()).toBeUndefined();
    await release!();
    expect(readdirSync(join(temp, 'woken'))).toEqual([]);
  });

  it('is kept from a holder of another host (a shared folder) until it goes stale', async () => {
    const folder = join(temp, 'other-host', 'documents.lock');
    leftLock(folder, { pid: await deadPid(), host: `not-${LOCK_HOST}` });
    const waiter = new HeldFolder(folder, STALE_MS, () => undefined);
    expect(await waiter.tryLock()).toBeUndefined();
    leftLock(folder, { pid: await deadPid(), host: `not-${LOCK_HOST}` }, STALE_MS + 1000);
    const release = await waiter.tryLock();
    expect(release).toBeTypeOf('function');
    await release!();
  });

  it('clears the folders a killed process left beside it while taking or giving it back', async () => {
    const folder = join(temp, 'leftovers', 'documents.lock');
    const beside = (name: string, ageMs: number) => {
      mkdirSync(join(temp, 'leftovers', name, 'holder-x'), { recursive: true });
      const at = new Date(Date.now() - ageMs);
      utimesSync(join(temp, 'leftovers', name), at, at);
    };
    beside('documents.lock.old0one.tmp', 60_000);
    beside('documents.lock.old0two.old', 60_000);
    // Young ones may be another process's, half-way through taking or giving back the lock.
    beside('documents.lock.young0one.tmp', 0);
    const release = await new HeldFolder(folder, STALE_MS, () => undefined).tryLock();
    expect(release).toBeTypeOf('function');
    await release!();
    expect(readdirSync(join(temp, 'leftovers'))).toEqual(['documents.lock.young0one.tmp']);
  });

  it('takes a holder of a host of the same name but another pid namespace for one of another host', async () => {
    const folder = join(temp, 'other-namespace', 'documents.lock');
    leftLock(folder, { pid: await deadPid(), host: `${LOCK_HOST.split(' ')[0]} pid:[1]` });
    expect(await new HeldFolder(folder, STALE_MS, () => undefined).tryLock()).toBeUndefined();
  });

  it('is taken at once when empty (its holder died while giving it back)', async () => {
    const folder = join(temp, 'empty', 'documents.lock');
    mkdirSync(folder, { recursive: true });
    const waiter = new HeldFolder(folder, STALE_MS, () => undefined);
    const release = await waiter.tryLock();
    expect(release).toBeTypeOf('function');
    expect(readdirSync(folder)).toHaveLength(1);
    await release!();
    expect(existsSync(folder)).toBe(false);
  });

  it('is cleared once stale when it holds stray files and no holder (a .DS_Store), not waited on forever', async () => {
    const folder = join(temp, 'stray', 'documents.lock');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, '.DS_Store'), 'x');
    const waiter = new HeldFolder(folder, STALE_MS, () => undefined);
    expect(await waiter.tryLock()).toBeUndefined();
    const old = new Date(Date.now() - STALE_MS - 1000);
    utimesSync(folder, old, old);
    const release = await waiter.tryLock();
    expect(release).toBeTypeOf('function');
    await release!();
    // The stray folder was moved aside and removed, not left as a `.old` folder.
    expect(readdirSync(join(temp, 'stray'))).toEqual([]);
  });

  it('treats a holder file that is not a holder (JSON null) as unreadable: kept until stale, then taken', async () => {
    const folder = join(temp, 'null-holder', 'documents.lock');
    mkdirSync(folder, { recursive: true });
    const file = join(folder, 'holder-null0holder0');
    writeFileSync(file, 'null');
    const waiter = new HeldFolder(folder, STALE_MS, () => undefined);
    expect(await waiter.tryLock()).toBeUndefined();
    const old = new Date(Date.now() - STALE_MS - 1000);
    utimesSync(file, old, old);
    const release = await waiter.tryLock();
    expect(release).toBeTypeOf('function');
    await release!();
  });

  it('given back by a holder it was taken from while frozen, stays with the new holder alone', async () => {
    // A froze holding the lock; B took it over as stale; A wakes and gives back what it thinks it holds.
    const folder = join(temp, 'late-release', 'documents.lock');
    const a = new HeldFolder(folder, STALE_MS, () => undefined);
    const releaseA = await a.tryLock();
    const [fileA] = readdirSync(folder);
    const old = new Date(Date.now() - STALE_MS - 1000);
    utimesSync(join(folder, fileA), old, old);
    const b = new HeldFolder(folder, STALE_MS, () => undefined);
    const releaseB = await b.tryLock();
    expect(releaseB).toBeTypeOf('function');
    const [fileB] = readdirSync(folder);
    await releaseA!();
    // B's folder is still in place, so a third process cannot take the lock while B holds it.
    expect(readdirSync(folder)).toEqual([fileB]);
    expect(await new HeldFolder(folder, STALE_MS, () => undefined).tryLock()).toBeUndefined();
    await releaseB!();
  });

  it('is kept when its holder file cannot be read, until it goes stale', async () => {
    const folder = join(temp, 'unreadable', 'documents.lock');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'holder-cut0off'), '{"pid":');
    const waiter = new HeldFolder(folder, STALE_MS, () => undefined);
    expect(await waiter.tryLock()).toBeUndefined();
    const old = new Date(Date.now() - STALE_MS - 1000);
    utimesSync(join(folder, 'holder-cut0off'), old, old);
    const release = await waiter.tryLock();
    expect(release).toBeTypeOf('function');
    await release!();
  });
});
