import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiToken } from '../src/auth/service.js';
import { spawnFolio } from './helpers/cli.js';
import { git, makeGitProject } from './helpers/git.js';
import { spawnServe, type ServeProcess } from './helpers/serve.js';

/**
 * The editorial setup end to end: one writing server (`--commit --push origin`) pushing to a bare remote, a
 * replica (`--read-only --pull`) following it; a push the remote refuses (someone else pushed) is rebased with
 * the merge driver and pushed again, or reported when it conflicts.
 */
describe('folio serve --push and a --pull replica', () => {
  const root = mkdtempSync(join(tmpdir(), 'folio-git-remote-'));
  const remote = join(root, 'remote.git');
  const replicaDir = join(root, 'replica');
  const otherDir = join(root, 'other');
  let repo: Awaited<ReturnType<typeof makeGitProject>>;
  let writer: ServeProcess;
  let replica: ServeProcess;
  let article = '';
  let writerToken = '';
  let replicaToken = '';
  let hookToken = '';

  const until = async (what: string, check: () => Promise<boolean> | boolean) => {
    for (let i = 0; i < 400; i++) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`timed out waiting for ${what}`);
  };
  const remoteHead = () => git(remote, 'rev-parse', 'main');
  const read = async (base: string, auth: string, locale = 'en') => {
    const res = await fetch(`${base}/api/articles/${article}?locale=${locale}`, {
      headers: { authorization: `Bearer ${auth}` },
    });
    return ((await res.json()) as { data: { title: string; views: number | null } }).data;
  };
  const write = async (data: Record<string, unknown>) => {
    const res = await fetch(`${writer.base}/api/articles/${article}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${writerToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ data }),
    });
    expect(res.status).toBe(200);
  };
  /** The files the writer's watcher took since `from` (its output): each change it served, in order. */
  const served = (from: number) =>
    writer
      .stdout()
      .slice(from)
      .split('\n')
      .filter((l) => l.startsWith('updated: '));
  /** Another editor's clone: changes the article's file with the CLI, commits and pushes. */
  const otherPushes = async (data: Record<string, unknown>) => {
    await git(otherDir, 'pull', '-q', '--rebase');
    const r = await spawnFolio([
      'docs',
      'update',
      'articles',
      article,
      '--dir',
      otherDir,
      '--data',
      JSON.stringify(data),
    ]);
    expect(r.code, r.stderr).toBe(0);
    await git(otherDir, 'commit', '-qam', `other: ${Object.keys(data).join(', ')}`);
    await git(otherDir, 'push', '-q', 'origin', 'main');
  };

  beforeAll(async () => {
    await git(root, 'init', '-q', '--bare', '-b', 'main', remote);
    repo = await makeGitProject();
    await repo.edit(async (p) => {
      article = (await p.documents.create('article', { title: 'First', views: 1 })).documentId;
    });
    await repo.git('add', '-A');
    await repo.git('commit', '-qm', 'article');
    await repo.git('remote', 'add', 'origin', remote);
    await repo.git('push', '-q', '-u', 'origin', 'main');
    for (const dir of [replicaDir, otherDir]) {
      await git(root, 'clone', '-q', remote, dir);
      await git(dir, 'config', 'user.name', 'Other Editor');
      await git(dir, 'config', 'user.email', 'other@example.com');
    }
    expect((await spawnFolio(['git', 'setup', '--dir', otherDir])).code).toBe(0);
    writerToken = (await createApiToken(repo.dir, { name: 'Writer', type: 'full-access' })).accessKey;
    replicaToken = (await createApiToken(replicaDir, { name: 'Reader', type: 'read-only' })).accessKey;
    hookToken = (
      await createApiToken(replicaDir, { name: 'Push hook', type: 'custom', actions: ['plugin::folio.git.pull'] })
    ).accessKey;
    writer = await spawnServe(repo.dir, ['--commit', '--push', 'origin']);
    replica = await spawnServe(replicaDir, ['--read-only', '--pull', '1s']);
  });
  afterAll(async () => {
    await writer?.stop();
    await replica?.stop();
    repo?.cleanup();
    rmSync(root, { recursive: true, force: true });
  });

  it('pushes each write to the remote, and the replica serves it', async () => {
    await write({ title: 'Second' });
    await until('the push', async () => (await git(remote, 'log', '-1', '--format=%s', 'main')).includes('Second'));
    expect(await remoteHead()).toBe(await repo.git('rev-parse', 'HEAD'));
    expect(await git(remote, 'log', '-1', '--format=%an|%s', 'main')).toBe(
      'Writer|article "Second": update and publish (en)',
    );
    await until('the replica', async () => (await read(replica.base, replicaToken)).title === 'Second');
  });

  it("rebases onto another editor's push (the driver merges the file) and pushes again", async () => {
    await otherPushes({ views: 99 });
    const from = writer.stdout().length;
    await write({ title: 'Third' });
    await until('the push after the rebase', async () =>
      (await git(remote, 'log', '--format=%s', 'main')).startsWith('article "Third"'),
    );
    const subjects = (await git(remote, 'log', '--format=%s', '-3', 'main')).split('\n');
    expect(subjects).toEqual([
      'article "Third": update and publish (en)',
      'other: views',
      'article "Second": update and publish (en)',
    ]);
    // Both changes are in the file, and every server serves both: the writer before it pushed the rebase. It
    // served the rebased file at once, never the remote's file that the rebase started from (title "Second").
    expect(await read(writer.base, writerToken)).toMatchObject({ title: 'Third', views: 99 });
    expect(served(from)).toEqual([`updated: content/documents/articles/${article}.json`]);
    await until('the replica', async () => (await read(replica.base, replicaToken)).title === 'Third');
    expect((await read(replica.base, replicaToken)).views).toBe(99);
    expect(await repo.git('status', '--porcelain')).toBe('');
  });

  it('reports a push it cannot rebase (both changed the same field), keeping the local commit', async () => {
    await otherPushes({ title: 'Theirs' });
    const pushed = await remoteHead();
    const from = writer.stdout().length;
    await write({ title: 'Ours' });
    await until('the report', () => writer.stderr().includes('stopped on a conflict'));
    expect(writer.stderr()).toContain(
      `the push to origin was refused (the remote has new commits) and rebasing onto origin/main stopped on a ` +
        `conflict in content/documents/articles/${article}.json`,
    );
    expect(await remoteHead()).toBe(pushed);
    expect(await repo.git('log', '-1', '--format=%s')).toBe('article "Ours": update and publish (en)');
    // Nothing of the rebase is left: the branch checked out, no rebase in progress, no change in the files.
    expect(await repo.git('symbolic-ref', '--short', 'HEAD')).toBe('main');
    expect(existsSync(join(repo.dir, '.git', 'rebase-merge'))).toBe(false);
    expect(await repo.git('status', '--porcelain')).toBe('');
    // The rebase was undone before it was reported, and the remote's title was never served meanwhile.
    expect((await read(writer.base, writerToken)).title).toBe('Ours');
    expect(served(from)).toEqual([]);
  });

  it('pulls on POST /_folio/git/pull with a token holding its action, once every few seconds', async () => {
    const pull = (auth: string) =>
      fetch(`${replica.base}/_folio/git/pull`, { method: 'POST', headers: { authorization: `Bearer ${auth}` } });
    expect((await pull(replicaToken)).status).toBe(403);
    let ok = await pull(hookToken);
    if (ok.status === 429) {
      await new Promise((r) => setTimeout(r, Number(ok.headers.get('retry-after')) * 1000));
      ok = await pull(hookToken);
    }
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { data: { commit: string } }).data.commit).toBe(await remoteHead());
    const again = await pull(hookToken);
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    // A server that does not follow a remote has no such route.
    const none = await fetch(`${writer.base}/_folio/git/pull`, {
      method: 'POST',
      headers: { authorization: `Bearer ${writerToken}` },
    });
    expect(none.status).toBe(404);
  });

  it('refuses to start a replica whose checkout has changes of its own', async () => {
    const file = join(replicaDir, 'content', 'documents', 'articles', `${article}.json`);
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('"views"', '"views" '));
    try {
      const r = await spawnFolio(['serve', '--read-only', '--pull', '1s', '--port', '0', '--dir', replicaDir]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        `git: the checkout has local changes (content/documents/articles/${article}.json): ` +
          'a replica follows its remote',
      );
    } finally {
      writeFileSync(file, text);
    }
  });
});
