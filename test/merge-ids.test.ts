import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildProcess, execFile, execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { BIN, makeProject } from './helpers/project.js';
import { serveProcess } from './helpers/serve.js';
import { openProject } from '../src/project.js';
import { createApiToken } from '../src/auth/service.js';

/**
 * Two branches that each add documents, merged with real git: no conflict, yet their new files hold the
 * same numeric ids. Every process must number them alike, validate must pass with a notice, and
 * `validate --fix` must leave files whose ids are their own.
 */
const folio = (dir: string, ...args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [BIN, ...args, '--dir', dir], (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Row = { documentId: string; id: number; locale?: string };
const byKey = (rows: Row[]) =>
  Object.fromEntries(rows.map((r) => [`${r.documentId}/${r.locale ?? ''}`, r.id]).sort(([a], [b]) => (a < b ? -1 : 1)));

describe('ids after merging two branches that both added documents', () => {
  const p = makeProject();
  const git = (...args: string[]) => execFileSync('git', args, { cwd: p.dir, encoding: 'utf8' });
  let server: ChildProcess | undefined;
  let base = '';
  let token = '';

  /** Adds documents the way a user on a branch does: through the document service, then commits. */
  const addDocuments = async (label: string) => {
    const project = await openProject(p.dir);
    for (let i = 0; i < 3; i++) await project.documents.create('tag', { name: `${label}-tag-${i}` });
    const a = await project.documents.create('article', { title: `${label} article` });
    await project.documents.update('article', a.documentId, { title: `${label} article (fr)` }, { locale: 'fr' });
    git('add', '-A');
    git('commit', '-qm', `${label}: documents`);
  };

  const serve = () => serveProcess(p.dir);
  const api = async (path: string, from = base) => {
    const res = await fetch(`${from}${path}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status, path).toBe(200);
    return (await res.json()) as { data: Row[] };
  };
  const cli = async (...args: string[]) => {
    const r = await folio(p.dir, 'docs', 'list', ...args, '--page-size', '100', '--json');
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as { data: Row[] };
  };
  const lists = [
    ['tags', []],
    ['articles', ['--locale', '*', '--status', 'draft']],
    ['articles', ['--locale', '*', '--status', 'published']],
  ] as const;
  const apiQuery = (args: readonly string[]) => (args.length ? `&locale=*&status=${args[3]}` : '');
  /**
   * Every id the running server serves, and what `folio docs list --json` prints, for the same lists; returns
   * the ids printed for the first list (tags).
   */
  const agree = async () => {
    const printedLists: Array<Record<string, number>> = [];
    for (const [plural, args] of lists) {
      const served = byKey((await api(`/api/${plural}?pagination[pageSize]=100${apiQuery(args)}`)).data);
      const printed = byKey((await cli(plural, ...args)).data);
      expect(served, `${plural} ${args.join(' ')}`).toEqual(printed);
      printedLists.push(printed);
    }
    return printedLists[0];
  };
  /** The ids the files of a type hold (ids are numbered per type). */
  const fileIds = (plural: string) => {
    const ids: number[] = [];
    const dir = join(p.contentDir, 'documents', plural);
    for (const f of readdirSync(dir)) {
      const body = JSON.parse(readFileSync(join(dir, f), 'utf8'));
      const slots = body.locales ? Object.values(body.locales) : [body];
      for (const slot of slots as Array<Record<string, { id: number }>>)
        for (const v of [slot.draft, slot.published]) if (v) ids.push(v.id);
    }
    return ids;
  };
  const unique = (ids: number[]) => new Set(ids).size === ids.length;
  /** What the running server printed since its start: a line per file its watcher picked up. */
  let printed = '';
  /** Where `printed` stood when branch b was merged. */
  let merged = 0;
  /** Waits (10 s at most) until the running server printed, after `from`, a line for each of these files (paths). */
  const picked = async (files: string[], from: number) => {
    const all = () => files.every((f) => printed.slice(from).includes(basename(f)));
    for (let i = 0; i < 200 && !all(); i++) await sleep(50);
  };

  beforeAll(async () => {
    writeFileSync(join(p.dir, '.gitignore'), '.folio/\n');
    git('init', '-q', '-b', 'main');
    git('config', 'user.email', 'test@example.com');
    git('config', 'user.name', 'Test');
    await addDocuments('main');
    git('checkout', '-q', '-b', 'a');
    await addDocuments('a');
    git('checkout', '-q', 'main');
    // Branch b as another clone makes it: without this clone's local state (.folio/, out of git).
    rmSync(join(p.dir, '.folio'), { recursive: true, force: true });
    git('checkout', '-q', '-b', 'b');
    await addDocuments('b');
    git('checkout', '-q', 'main');
    git('merge', '-q', 'a');
    ({ accessKey: token } = await createApiToken(p.dir, { name: 'merge-test', type: 'full-access' }));
    // A server started before the merge, which sees b's files arrive through its watcher.
    ({ child: server, base } = await serve());
    server.stdout!.on('data', (d: Buffer) => (printed += d.toString()));
    expect((await api('/api/tags')).data).toHaveLength(6);
    // The watcher starts after the ready line: the merge must not come before it, so wait until a file
    // written in is seen (written again until then: one written before the watcher started is not news to
    // it), then take it out again.
    const probe = join(p.contentDir, 'documents', 'tags', 'watcherprobe000000000000.json');
    const ts = new Date().toISOString();
    const version = { id: 999, name: 'probe', createdAt: ts, updatedAt: ts, publishedAt: ts };
    for (let i = 0; i < 400 && (await api('/api/tags')).data.length < 7; i++) {
      if (i % 4 === 0)
        writeFileSync(probe, JSON.stringify({ documentId: 'watcherprobe000000000000', published: version }));
      await sleep(50);
    }
    expect((await api('/api/tags')).data).toHaveLength(7);
    rmSync(probe);
    for (let i = 0; i < 400 && (await api('/api/tags')).data.length > 6; i++) await sleep(50);
    expect((await api('/api/tags')).data).toHaveLength(6);
  }, 120_000);

  afterAll(() => {
    server?.kill('SIGTERM');
    p.cleanup();
  });

  it('merges without a conflict, and the files hold the same ids twice', () => {
    merged = printed.length;
    git('merge', '-q', '--no-edit', 'b');
    expect(git('status', '--porcelain')).toBe('');
    expect(unique(fileIds('tags'))).toBe(false);
    expect(unique(fileIds('articles'))).toBe(false);
  });

  it('validates with a notice, not a failure', async () => {
    const r = await folio(p.dir, 'validate');
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/notice: content\/documents\/tags\/\w+\.json: published\.id: id \d+ is also used by/);
    expect(r.stderr).toMatch(/^ok: 12 documents/m);
  });

  it('numbers every document alike in the running server, the CLI and a server started afresh', async () => {
    // The running server picks the merged files up through its watcher.
    await picked(git('diff', '--name-only', 'HEAD^1', 'HEAD').trim().split('\n'), merged);
    expect((await api('/api/tags?pagination[pageSize]=100')).data).toHaveLength(9);
    const first = await agree();
    // Twice from the CLI, and from a server started now: the same ids on every start.
    expect(byKey((await cli('tags')).data)).toEqual(first);
    const ids = Object.values(first);
    expect(new Set(ids).size).toBe(ids.length);
    const fresh = await serve();
    try {
      for (const [plural, args] of lists) {
        const path = `/api/${plural}?pagination[pageSize]=100${apiQuery(args)}`;
        expect(byKey((await api(path, fresh.base)).data)).toEqual(byKey((await api(path)).data));
      }
    } finally {
      fresh.child.kill('SIGTERM');
    }
  });

  it('--fix rewrites the clashing files so the tree validates clean, and the ids still agree', async () => {
    const before = printed.length;
    const fixed = await folio(p.dir, 'validate', '--fix');
    expect(fixed.code, fixed.stdout).toBe(0);
    expect(fixed.stderr).toMatch(/fixed: tags\/\w+: published\.id: \d+ -> \d+/);
    expect(fixed.stderr).not.toContain('notice:');
    for (const plural of ['tags', 'articles']) {
      expect(unique(fileIds(plural)), plural).toBe(true);
      expect(Math.max(...fileIds(plural))).toBeLessThan(1000);
    }
    // Only the files of the versions that gave their id up were rewritten.
    const changed = git('status', '--porcelain').trim().split('\n');
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.length).toBeLessThanOrEqual(4);
    const again = await folio(p.dir, 'validate');
    expect(again.code).toBe(0);
    expect(again.stderr).not.toContain('notice:');
    await picked(changed, before);
    await agree();
  });
});
