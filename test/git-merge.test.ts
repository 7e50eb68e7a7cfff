import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openProject, type Project } from '../src/project.js';
import { encodeDocument } from '../src/documents/file-format.js';
import { MAX_MERGE_DEPTH, mergeDocumentFile } from '../src/git/merge/driver.js';
import { mergeList } from '../src/git/merge/lists.js';
import { mergeWhole } from '../src/git/merge/three-way.js';
import { serialize } from '../src/store/serialize.js';
import { spawnFolio } from './helpers/cli.js';
import { gitStatus, gitWith, makeGitProject } from './helpers/git.js';

/**
 * Document files merged by `git merge` with the driver `folio git setup` registered: two branches change one
 * document, and the merge keeps both changes or stops on a true conflict that `folio validate` names.
 */
describe('git merge of document files with the Folio driver', () => {
  let repo: Awaited<ReturnType<typeof makeGitProject>>;
  let n = 0;
  beforeAll(async () => {
    repo = await makeGitProject();
  });
  afterAll(() => repo.cleanup());
  // The tests share one repository: a test that fails (or times out) in the middle of a merge leaves it to the
  // next only as its own failure, not as "you need to resolve your current index first" in every test after it.
  afterEach(async () => {
    if (existsSync(join(repo.dir, '.git', 'MERGE_HEAD'))) await repo.git('merge', '--abort');
  });

  /** A document made on its own base branch; answers the branch and the documentId. */
  const base = async (make: (p: Project) => Promise<string>) => {
    const name = `base-${++n}`;
    let id = '';
    await repo.branch(name, 'main', async (p) => (id = await make(p)));
    return { name, id, a: `${name}-a`, b: `${name}-b` };
  };
  const merge = async (into: string, from: string) => {
    await repo.git('checkout', '-q', into);
    return gitStatus(repo.dir, 'merge', '--no-edit', from);
  };
  const fileOf = (plural: string, id: string) => join(repo.contentDir, 'documents', plural, `${id}.json`);
  const read = (plural: string, id: string) => JSON.parse(readFileSync(fileOf(plural, id), 'utf8'));
  /** The merged file is what the store writes for the document it holds: the same bytes. */
  const expectStoreBytes = async (uid: string, plural: string, id: string) => {
    const project = await openProject(repo.dir);
    expect(project.report.problems).toEqual([]);
    const doc = project.documents.index.get(uid, id)!;
    const ct = project.schemas.contentTypes.get(uid)!;
    expect(readFileSync(fileOf(plural, id), 'utf8')).toBe(serialize(encodeDocument(ct, doc)));
  };
  const validate = () => spawnFolio(['validate', '--dir', repo.dir]);

  it('sets the driver up once: a second run changes nothing', async () => {
    const again = await spawnFolio(['git', 'setup', '--dir', repo.dir, '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).changed).toEqual({ config: false, attributes: false });
    const lines = readFileSync(join(repo.dir, '.gitattributes'), 'utf8').split('\n');
    expect(lines.filter((l) => l === 'content/documents/**/*.json merge=folio')).toHaveLength(1);
    expect(await repo.git('config', '--get', 'merge.folio.driver')).toMatch(/merge-file %O %A %B %P/);
  });

  it('merges changes to different fields of one version, with the later updatedAt', async () => {
    const b = await base(async (p) => (await p.documents.create('article', { title: 'Hello', views: 1 })).documentId);
    await repo.branch(b.a, b.name, (p) => p.documents.update('article', b.id, { title: 'Hello there' }));
    await repo.branch(b.b, b.name, (p) => p.documents.update('article', b.id, { views: 42 }));
    const later = read('articles', b.id).locales.en.draft.updatedAt;
    const r = await merge(b.a, b.b);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const doc = read('articles', b.id);
    for (const status of ['draft', 'published'])
      expect(doc.locales.en[status]).toMatchObject({ title: 'Hello there', views: 42 });
    expect(doc.locales.en.draft.updatedAt).toBe(later);
    await expectStoreBytes('api::article.article', 'articles', b.id);
    expect((await validate()).code).toBe(0);
  });

  it('merges changes to different locales', async () => {
    const b = await base(async (p) => {
      const a = await p.documents.create('article', { title: 'Hello' });
      await p.documents.update('article', a.documentId, { title: 'Bonjour' }, { locale: 'fr' });
      return a.documentId;
    });
    await repo.branch(b.a, b.name, (p) => p.documents.update('article', b.id, { title: 'Hello, world' }));
    await repo.branch(b.b, b.name, (p) =>
      p.documents.update('article', b.id, { title: 'Bonjour, monde' }, { locale: 'fr' }),
    );
    const r = await merge(b.a, b.b);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const doc = read('articles', b.id);
    expect(doc.locales.en.published.title).toBe('Hello, world');
    expect(doc.locales.fr.published.title).toBe('Bonjour, monde');
    await expectStoreBytes('api::article.article', 'articles', b.id);
  });

  it('applies a reorder of repeatable components on one side and an edit of one item on the other', async () => {
    const links = ['one', 'two', 'three'].map((label) => ({ label, url: `https://example.com/${label}` }));
    const b = await base(async (p) => (await p.documents.create('article', { title: 'Links', links })).documentId);
    await repo.branch(b.a, b.name, (p) =>
      p.documents.update('article', b.id, { links: [links[2], links[0], links[1]] }),
    );
    await repo.branch(b.b, b.name, (p) =>
      p.documents.update('article', b.id, { links: [links[0], { ...links[1], label: 'TWO' }, links[2]] }),
    );
    const r = await merge(b.a, b.b);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(read('articles', b.id).locales.en.draft.links.map((l: { label: string }) => l.label)).toEqual([
      'three',
      'one',
      'TWO',
    ]);
    await expectStoreBytes('api::article.article', 'articles', b.id);
  });

  it('keeps the relations both sides added, in order', async () => {
    let tags: string[] = [];
    const b = await base(async (p) => {
      tags = [];
      for (const name of ['t0', 't1', 't2', 't3']) tags.push((await p.documents.create('tag', { name })).documentId);
      return (await p.documents.create('article', { title: 'Tagged', tags: [tags[0]] })).documentId;
    });
    await repo.branch(b.a, b.name, (p) => p.documents.update('article', b.id, { tags: [tags[0], tags[1]] }));
    await repo.branch(b.b, b.name, (p) => p.documents.update('article', b.id, { tags: [tags[2], tags[0], tags[3]] }));
    const r = await merge(b.a, b.b);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(read('articles', b.id).locales.en.published.tags).toEqual([tags[2], tags[0], tags[1], tags[3]]);
    await expectStoreBytes('api::article.article', 'articles', b.id);
    expect((await validate()).code).toBe(0);
  });

  it('stops on a field changed to two values: markers around that field only, named by folio validate', async () => {
    const b = await base(async (p) => (await p.documents.create('article', { title: 'Hello', views: 1 })).documentId);
    await repo.branch(b.a, b.name, (p) => p.documents.update('article', b.id, { title: 'Title A', views: 2 }));
    await repo.branch(b.b, b.name, (p) => p.documents.update('article', b.id, { title: 'Title B' }));
    const r = await merge(b.a, b.b);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toContain(`CONFLICT (content): Merge conflict in content/documents/articles/${b.id}.json`);
    const text = readFileSync(fileOf('articles', b.id), 'utf8');
    expect(text).toContain(
      [
        '<<<<<<< ours: locales.en.draft.title',
        '        "title": "Title A",',
        '=======',
        '        "title": "Title B",',
        '>>>>>>> theirs: locales.en.draft.title',
      ].join('\n'),
    );
    // Only the title conflicts: the views one side changed are merged.
    expect(text.match(/^<<<<<<< /gm)).toHaveLength(2);
    expect(text).toMatch(/"views": 2,/);
    const v = await validate();
    expect(v.code).toBe(1);
    expect(v.stdout).toContain(
      `content/documents/articles/${b.id}.json: locales.en.draft.title: ` +
        'merge conflict: ours "Title A", theirs "Title B"',
    );
    // Keeping one side and deleting the marker lines is the whole resolution.
    writeFileSync(fileOf('articles', b.id), text.replace(/<<<<<<< .*\n(.*\n)=======\n.*\n>>>>>>> .*\n/g, '$1'));
    expect((await validate()).code).toBe(0);
    expect(read('articles', b.id).locales.en.published.title).toBe('Title A');
    await repo.git('commit', '-qam', 'resolved');
  });

  it('stops on a document deleted on one side and edited on the other, and validate says so', async () => {
    const b = await base(async (p) => (await p.documents.create('article', { title: 'Doomed' })).documentId);
    await repo.branch(b.a, b.name, (p) => p.documents.delete('article', b.id, { locale: '*' }));
    await repo.branch(b.b, b.name, (p) => p.documents.update('article', b.id, { title: 'Still here' }));
    const r = await merge(b.a, b.b);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toContain('CONFLICT (modify/delete)');
    const v = await validate();
    expect(v.code).toBe(1);
    expect(v.stdout).toContain(
      `content/documents/articles/${b.id}.json: deleted on this branch and changed on the other: keep it with ` +
        `"git add content/documents/articles/${b.id}.json"`,
    );
    await repo.git('rm', '-q', `content/documents/articles/${b.id}.json`);
    await repo.git('commit', '-qm', 'resolved');
    expect((await validate()).code).toBe(0);
  });

  it('runs nothing from the repository it merges: not its node_modules, its PATH entries or its scripts', async () => {
    const b = await base(async (p) => (await p.documents.create('article', { title: 'Safe', views: 1 })).documentId);
    await repo.branch(b.a, b.name, (p) => p.documents.update('article', b.id, { title: 'Safe A' }));
    await repo.branch(b.b, b.name, (p) => p.documents.update('article', b.id, { views: 5 }));
    const pwned = join(repo.dir, 'pwned');
    const bin = join(repo.dir, 'node_modules', '.bin');
    mkdirSync(bin, { recursive: true });
    for (const name of ['folio', 'node', 'npx']) {
      writeFileSync(join(bin, name), `#!/bin/sh\ntouch ${JSON.stringify(pwned)}\n`);
      chmodSync(join(bin, name), 0o755);
    }
    await repo.git('checkout', '-q', b.a);
    const r = await gitWith({ PATH: `${bin}:${process.env.PATH}` }, repo.dir, 'merge', '--no-edit', b.b);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(existsSync(pwned)).toBe(false);
    expect(read('articles', b.id).locales.en.draft).toMatchObject({ title: 'Safe A', views: 5 });
  });

  it("leaves a file that is not document JSON (one holding markers already) to git's line merge", async () => {
    const dir = join(repo.dir, '.folio');
    mkdirSync(dir, { recursive: true });
    const [base, ours, theirs] = ['base', 'ours', 'theirs'].map((n) => join(dir, `${n}.json`));
    const middle = '  "c": 1,\n  "d": 1,\n  "e": 1,\n';
    writeFileSync(base, `{\n  "a": 1,\n${middle}  "b": 1\n}\n`);
    writeFileSync(ours, `{\n<<<<<<< x\n  "a": 2,\n=======\n  "a": 3,\n>>>>>>> y\n${middle}  "b": 1\n}\n`);
    writeFileSync(theirs, `{\n  "a": 1,\n${middle}  "b": 4\n}\n`);
    const r = await mergeDocumentFile({ base, ours, theirs, cwd: repo.dir });
    expect(r).toEqual({ conflicts: [], lineMerge: 0 });
    expect(readFileSync(ours, 'utf8')).toContain('"b": 4');
  });
});

/**
 * The driver fed what no Folio write makes (a hand edit, another tool): JSON nested far deeper than the API takes,
 * objects and lists with tens of thousands of entries. However it ends, a conflict git reports is one the file
 * shows, never our side left as it was; and wide files merge in time linear in their size.
 */
describe('the merge driver on hostile JSON', () => {
  const dir = mkdtempSync(join(tmpdir(), 'folio-merge-hostile-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const files = (base: string, ours: string, theirs: string) => {
    const [b, o, t] = ['base', 'ours', 'theirs'].map((n) => join(dir, `${n}.json`));
    writeFileSync(b, base);
    writeFileSync(o, ours);
    writeFileSync(t, theirs);
    return [b, o, t];
  };
  const nested = (depth: number, leaf: string) => `${'['.repeat(depth)}${leaf}${']'.repeat(depth)}`;
  const doc = (title: string, data: string) =>
    `{"documentId":"abc","draft":{"id":1,"title":"${title}","data":${data}}}\n`;
  const driver = (b: string, o: string, t: string, env?: Record<string, string>) =>
    spawnFolio(['merge-file', b, o, t, 'content/documents/articles/abc.json'], { env });

  it('leaves a conflict a person sees on deeply nested JSON (markers), never our side unmarked', async () => {
    const depth = 100_000;
    const [b, o, t] = files(
      doc('Base', nested(depth, '1')),
      doc('Ours', nested(depth, '2')),
      doc('Base', nested(depth, '3')),
    );
    const before = readFileSync(o, 'utf8');
    const r = await driver(b, o, t);
    const after = readFileSync(o, 'utf8');
    expect(r.stderr).not.toContain('Maximum call stack size exceeded');
    // A conflict reported by the exit code is one the file shows.
    if (r.code !== 0) expect(after).not.toBe(before);
    expect(r.code).toBe(1);
    expect(after).toMatch(/^<<<<<<< ours$/m);
    expect(r.stderr).toContain(`merged line by line, not per field: nested more than ${MAX_MERGE_DEPTH} levels deep`);
  });

  it('merges per field a document nested as deep as the bound, with both changes', async () => {
    const data = (leaf: string) => nested(MAX_MERGE_DEPTH - 3, leaf);
    const [b, o, t] = files(doc('Base', data('1')), doc('Ours', data('1')), doc('Base', data('3')));
    const r = await driver(b, o, t);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(o, 'utf8'))).toEqual(JSON.parse(doc('Ours', data('3'))));
  });

  it('holds both sides whole between markers when git itself cannot merge the lines', async () => {
    const [b, o, t] = files('{"a": 1\n', '{"a": 2\n', '{"a": 3\n');
    const r = await driver(b, o, t, { PATH: '/nonexistent' });
    expect(r.code).toBe(1);
    expect(readFileSync(o, 'utf8')).toBe('<<<<<<< ours\n{"a": 2\n=======\n{"a": 3\n>>>>>>> theirs\n');
    expect(r.stderr).toContain('git merge-file failed');
  });

  it('merges a side with 40,000 keys of its own, in their order after the key before them', async () => {
    const extra = Object.fromEntries(Array.from({ length: 40_000 }, (_, i) => [`k${i}`, i]));
    const version = (more: object) => JSON.stringify({ documentId: 'abc', draft: { id: 1, title: 'x', ...more } });
    const [b, o, t] = files(version({}), version({ z: 1 }), version(extra));
    const r = await mergeDocumentFile({ base: b, ours: o, theirs: t, cwd: dir });
    expect(r).toEqual({ conflicts: [] });
    expect(Object.keys(JSON.parse(readFileSync(o, 'utf8')).draft)).toEqual(['id', 'title', ...Object.keys(extra), 'z']);
  });
  it('merges long lists of links both sides changed: removals, moves and thousands of additions', () => {
    const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
    const base = ids('d', 4000);
    // Ours drops the first link and adds its own at the end; theirs adds its own first and drops the last.
    const ours = [...base.slice(1), ...ids('o', 4000)];
    const theirs = [...ids('t', 4000), ...base.slice(0, -1)];
    const merged = mergeList(base, ours, theirs, { merge: mergeWhole, pairs: false });
    expect(merged).toEqual([...ids('t', 4000), ...base.slice(1, -1), ...ids('o', 4000)]);
  });
});
