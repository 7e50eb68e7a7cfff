import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { makeProject } from './helpers/project.js';
import { makeGitProject } from './helpers/git.js';
import { runFolio } from './helpers/cli.js';
import { canMount } from './helpers/requirements.js';
import { openProject } from '../src/project.js';
import { KeyedLock, TEMP_MARK } from '../src/store/atomic.js';
import { FileStore, StaleFileError } from '../src/store/store.js';
import { committingMark } from '../src/git/serving.js';

/**
 * A document file is replaced whole or not at all: a write that fails (a full disk) or is given up (the file
 * changed meanwhile) leaves the old file and no temp file; the temp files killed writers left are cleared when
 * the project is opened, never a document nor another writer's fresh temp file; the writes of one file run one
 * after another, and shutting down waits for those under way.
 */
const temps = (dir: string) => readdirSync(dir).filter((n) => n.startsWith(TEMP_MARK));
const dated = (file: string, agoMs: number) => {
  const at = new Date(Date.now() - agoMs);
  utimesSync(file, at, at);
};
const settle = async () => {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
};

describe.skipIf(!canMount)('a document write on a full disk', () => {
  const p = makeProject();
  const articles = join(p.contentDir, 'documents', 'articles');
  afterAll(() => {
    try {
      execFileSync('umount', ['-l', articles]);
    } catch {
      /* not mounted */
    }
    p.cleanup();
  });

  it('fails and leaves the file as it was, with no temp file beside it', async () => {
    mkdirSync(articles, { recursive: true });
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', articles]);
    const project = await openProject(p.dir);
    const { documentId } = await project.documents.create('article', { title: 'Before the disk filled' });
    const file = join(articles, `${documentId}.json`);
    const before = readFileSync(file, 'utf8');
    try {
      for (let i = 0; ; i++) writeFileSync(join(articles, `filler-${i}`), Buffer.alloc(4096));
    } catch {
      /* full */
    }
    const changed = project.documents.update('article', documentId, { title: 'Changed on a full disk' });
    await expect(changed).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(temps(articles)).toEqual([]);
    for (const name of readdirSync(articles)) if (name.startsWith('filler-')) rmSync(join(articles, name));
    const reopened = await openProject(p.dir);
    expect(reopened.report.problems).toEqual([]);
    const ct = reopened.schemas.find('article')!;
    expect(reopened.documents.findVersion(ct, documentId, 'published', 'en')!.data.title).toBe(
      'Before the disk filled',
    );
  });
});

describe('a document write given up because the file changed after it was read', () => {
  it("keeps the other hand's edit and leaves no temp file", async () => {
    const p = makeProject();
    try {
      const project = await openProject(p.dir);
      const { documentId } = await project.documents.create('tag', { name: 'first' });
      const store = new FileStore(p.contentDir);
      const current = store.readCurrent('tags', documentId)!;
      writeFileSync(current.file, current.text.replace('first', 'by hand'));
      await expect(store.write('tags', documentId, JSON.parse(current.text), current.stamp)).rejects.toBeInstanceOf(
        StaleFileError,
      );
      expect(readFileSync(current.file, 'utf8')).toContain('by hand');
      expect(temps(join(p.contentDir, 'documents', 'tags'))).toEqual([]);
    } finally {
      p.cleanup();
    }
  });
});

describe('a server writing all day', () => {
  it('keeps no file open after its writes (it would run out of file descriptors)', async () => {
    const p = makeProject();
    try {
      const project = await openProject(p.dir);
      const { documentId } = await project.documents.create('tag', { name: 'first' });
      const open = () => readdirSync('/proc/self/fd').length;
      const before = open();
      for (let i = 0; i < 20; i++) await project.documents.update('tag', documentId, { name: `write ${i}` });
      expect(open()).toBeLessThanOrEqual(before);
    } finally {
      p.cleanup();
    }
  });
});

describe('temp files left by a killed writer', () => {
  it('are removed when the project is opened once old, and documents and fresh temp files are kept', async () => {
    const p = makeProject();
    try {
      const first = await openProject(p.dir);
      const ids = [];
      for (const name of ['a', 'b', 'c']) ids.push((await first.documents.create('tag', { name })).documentId);
      const dir = join(p.contentDir, 'documents', 'tags');
      // Documents written long ago, beside temp files: one a killed writer left a minute ago, one being written.
      for (const name of readdirSync(dir)) dated(join(dir, name), 3600_000);
      writeFileSync(join(dir, `${TEMP_MARK}${ids[0]}.json.0a1b2c`), '{"half":');
      dated(join(dir, `${TEMP_MARK}${ids[0]}.json.0a1b2c`), 60_000);
      writeFileSync(join(dir, `${TEMP_MARK}${ids[1]}.json.3d4e5f`), '{"being written":');
      dated(join(dir, `${TEMP_MARK}${ids[1]}.json.3d4e5f`), 10_000);
      writeFileSync(join(dir, 'notes.txt'), 'kept by hand');
      dated(join(dir, 'notes.txt'), 3600_000);

      const reopened = await openProject(p.dir);
      expect(readdirSync(dir).sort()).toEqual(
        [...ids.map((id) => `${id}.json`), `${TEMP_MARK}${ids[1]}.json.3d4e5f`, 'notes.txt'].sort(),
      );
      const ct = reopened.schemas.find('tag')!;
      expect(ids.map((id) => reopened.documents.findVersion(ct, id, 'published', undefined)?.data.name)).toEqual([
        'a',
        'b',
        'c',
      ]);
    } finally {
      p.cleanup();
    }
  });
});

describe('writes of one file', () => {
  it('run one after another, each once the one before has ended, and a failed one does not stop the next', async () => {
    const lock = new KeyedLock();
    const order: string[] = [];
    let endSecond!: () => void;
    const second = new Promise<void>((r) => (endSecond = r));
    const a = lock.run('doc', async () => {
      await settle();
      order.push('first');
      throw new Error('refused');
    });
    const b = lock.run('doc', async () => {
      order.push('second starts');
      await second;
      order.push('second ends');
    });
    const other = lock.run('another doc', async () => {
      order.push('another document');
    });
    await expect(a).rejects.toThrow('refused');
    await settle();
    // Arrives while the second runs: waits for it.
    const c = lock.run('doc', async () => {
      order.push('third');
    });
    await settle();
    endSecond();
    await Promise.all([b, c, other]);
    expect(order).toEqual(['another document', 'first', 'second starts', 'second ends', 'third']);
  });

  it('are all waited for by a shutdown: once idle, every one has ended', async () => {
    const lock = new KeyedLock();
    const ended: string[] = [];
    const write = (key: string, name: string) =>
      lock.run(key, async () => {
        await settle();
        ended.push(name);
      });
    const writes = [write('doc', 'first'), write('doc', 'second'), write('another doc', 'another')];
    await lock.idle();
    expect(ended.sort()).toEqual(['another', 'first', 'second']);
    await Promise.all(writes);
    // Nothing left queued: idle at once, and the next write of the same file runs.
    await lock.idle();
    await write('doc', 'after');
    expect(ended).toContain('after');
  });
});

describe('CLI commands run while a server commits the project', () => {
  it('commit the files they write and the files they remove', async () => {
    const repo = await makeGitProject({ driver: false });
    try {
      const tag = await repo.edit(async (p) => (await p.documents.create('tag', { name: 'to remove' })).documentId);
      await repo.git('add', '-A');
      await repo.git('commit', '-qm', 'a tag');
      // The mark `folio serve --commit` leaves while it runs (this process stands for it).
      mkdirSync(join(committingMark(repo.dir), '..'), { recursive: true });
      writeFileSync(committingMark(repo.dir), JSON.stringify({ pid: process.pid, host: hostname() }));

      const added = await runFolio(['locales', 'add', 'de', '--dir', repo.dir]);
      expect(added.code, added.stderr).toBe(0);
      expect(await repo.git('log', '-1', '--format=%s', '--name-status')).toBe(
        'folio locales add de\n\nM\tcontent/folio.json',
      );
      const removed = await runFolio(['docs', 'delete', 'tags', tag, '--dir', repo.dir]);
      expect(removed.code, removed.stderr).toBe(0);
      expect(await repo.git('log', '-1', '--format=%s', '--name-status')).toBe(
        `folio docs delete tags ${tag}\n\nD\tcontent/documents/tags/${tag}.json`,
      );
      expect(await repo.git('status', '--porcelain')).toBe('');
    } finally {
      repo.cleanup();
    }
  });
});
