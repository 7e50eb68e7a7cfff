import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openProject } from '../src/project.js';
import { readBlock } from '../src/startup/read-block.js';
import { loadSchemas } from '../src/schema/registry.js';
import { BIN, makeProject } from './helpers/project.js';

/**
 * Loading reads every document file. Under `relatime` (the usual mount option) the first read of a file
 * since it was written, as after a clone, updates its access time: an inode written back per file, a
 * third of the kernel's time at a first start. Folio opens them with O_NOATIME where it can.
 */

const OLD = new Date('2020-01-01T00:00:00Z');
const project = makeProject({ withExampleDocuments: true });
afterAll(() => project.cleanup());

const documentFiles = () => {
  const root = join(project.contentDir, 'documents');
  return readdirSync(root).flatMap((plural) => readdirSync(join(root, plural)).map((f) => join(root, plural, f)));
};
const ageAccessTimes = (files: string[]) => {
  for (const f of files) utimesSync(f, OLD, statSync(f).mtime);
};
const untouched = (files: string[]) => files.filter((f) => statSync(f).atimeMs !== OLD.getTime());

/** Whether a plain read here updates an old access time (not on `noatime` mounts: there the tests prove nothing). */
function readsUpdateAccessTimes(): boolean {
  const probe = join(project.dir, 'probe.txt');
  writeFileSync(probe, 'x');
  utimesSync(probe, OLD, statSync(probe).mtime);
  readFileSync(probe);
  return statSync(probe).atimeMs !== OLD.getTime();
}

describe('reading documents leaves their access times alone', () => {
  it('when a project is loaded (the main thread reads small collections)', async (ctx) => {
    if (!readsUpdateAccessTimes()) ctx.skip();
    const files = documentFiles();
    expect(files.length).toBeGreaterThan(20);
    ageAccessTimes(files);
    const opened = await openProject(project.dir, { load: { useSnapshot: false } });
    expect(opened.report.documents).toBe(files.length);
    expect(untouched(files)).toEqual([]);
  });

  it('when a reader thread reads a block of files (large collections at a first start)', (ctx) => {
    if (!readsUpdateAccessTimes()) ctx.skip();
    const dir = join(project.contentDir, 'documents', 'articles');
    const files = readdirSync(dir).map((f) => join(dir, f));
    ageAccessTimes(files);
    const ct = [...loadSchemas(project.contentDir).contentTypes.values()].find((t) => t.pluralName === 'articles')!;
    const ids = readdirSync(dir)
      .map((f) => f.slice(0, -5))
      .sort();
    const block = readBlock(project.contentDir, ct, 0, ids, { table: new Map(), scratch: { buf: Buffer.alloc(1024) } });
    expect(block.problems).toEqual([]);
    expect(block.meta.length).toBeGreaterThan(0);
    expect(untouched(files)).toEqual([]);
  });

  it('and still load files another user owns (where O_NOATIME is refused)', (ctx) => {
    // Only root can run the CLI as another user (the project's files stay root's), and only where that
    // user can read this checkout.
    if (process.getuid?.() !== 0) ctx.skip();
    const asNobody = (args: string[]) =>
      spawnSync(process.execPath, [BIN, ...args], { uid: 65534, gid: 65534, encoding: 'utf8' });
    if (asNobody(['--version']).status !== 0) ctx.skip();
    chmodSync(project.dir, 0o755);
    const run = asNobody(['docs', 'list', 'articles', '--dir', project.dir, '--json', '--page-size', '100']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const published = readdirSync(join(project.contentDir, 'documents', 'articles')).filter((f) =>
      readFileSync(join(project.contentDir, 'documents', 'articles', f), 'utf8').includes('"published"'),
    );
    expect(JSON.parse(run.stdout).data).toHaveLength(published.length);
  });
});
