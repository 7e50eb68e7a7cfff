import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, startTestServer, type TestServer } from './helpers/project.js';
import { RED_PNG, form } from './helpers/media.js';
import { runFolio } from './helpers/cli.js';

/** Every document file under `root` and its text. */
const documentTexts = (root: string) =>
  Object.fromEntries(
    readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => [join(e.parentPath, e.name), readFileSync(join(e.parentPath, e.name), 'utf8')]),
  );

/** The CLI in this process (see helpers/cli.ts), or with `spawned` in one of its own, as a user runs it. */
function folio(args: string[], spawned = false) {
  if (!spawned) return runFolio(args);
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end();
  });
}

/**
 * The source: a Folio server over the example blog, in this process (the import is what runs as a user runs
 * it). It speaks Strapi's REST API, the content-type-builder routes the import reads the model from included.
 */
describe('folio import strapi --url', () => {
  let source: TestServer;
  let base: string;
  let token: string;
  let dir: string;
  let cover: { documentId: string };
  /** A request to the source with its full-access token, the answer JSON-decoded. */
  const call = async (path: string, init: { method?: string; body?: unknown } = {}) => {
    const res = await fetch(`${base}${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await res.text();
    return { status: res.status, text, body: text ? (JSON.parse(text) as unknown) : undefined };
  };
  beforeAll(async () => {
    source = await startTestServer({ withExampleDocuments: true });
    ({ url: base, token } = source);
    // The example's covers, and one more media file linked from an article: the library and media fields come along.
    const uploaded = await fetch(`${base}/api/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form([{ name: 'red.png', type: 'image/png', data: RED_PNG }], {
        fileInfo: { alternativeText: 'A red square', caption: 'Red' },
      }),
    });
    expect(uploaded.status).toBe(201);
    cover = ((await uploaded.json()) as Array<{ documentId: string }>)[0];
    const first = ((await call('/api/articles?locale=en')).body as { data: Array<{ documentId: string }> }).data[0];
    const linked = await call(`/api/articles/${first.documentId}?locale=en`, {
      method: 'PUT',
      body: { data: { cover: cover.documentId } },
    });
    expect(linked.status, linked.text).toBe(200);
    dir = mkdtempSync(join(tmpdir(), 'folio-import-'));
    expect((await folio(['init', dir, '-q'])).code).toBe(0);
  }, 60_000);
  afterAll(async () => {
    await source?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('copies the model, locales, media and every document in every locale and status', async () => {
    const r = await folio(['import', 'strapi', '--url', base, '--token', token, '--dir', dir], true);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/6 content-type\(s\), 6 component\(s\), locales en, fr/);
    expect(r.stdout).toMatch(/media: 6 added, 0 already there/);
    expect(r.stdout).toMatch(/article\.secretNote/);
    const validate = await folio(['validate', '--dir', dir]);
    expect(validate.code, validate.stdout).toBe(0);

    // The imported project answers the same lists as its source.
    const copy = await startTestServer({ dir });
    try {
      const types = ((await call('/api')).body as { data: Array<{ uid: string; route: string; kind: string }> }).data;
      for (const t of types) {
        for (const locale of ['en', 'fr']) {
          for (const status of ['published', 'draft']) {
            const path = `${t.route}?locale=${locale}&status=${status}&populate=*&pagination[pageSize]=100`;
            const [a, b] = await Promise.all([call(path), copy.api(path)]);
            expect(b.status, path).toBe(a.status);
            expect(b.body, path).toEqual(a.body);
          }
        }
      }
      const media = await copy.api('/api/upload/files');
      expect(media.body).toHaveLength(6);
      expect(media.body).toContainEqual(
        expect.objectContaining({ documentId: cover.documentId, alternativeText: 'A red square', caption: 'Red' }),
      );
    } finally {
      await copy.stop();
    }
  }, 120_000);

  it('running it again updates and never duplicates', async () => {
    const count = () =>
      Object.fromEntries(
        readdirSync(join(dir, 'content', 'documents')).map((p) => [
          p,
          readdirSync(join(dir, 'content', 'documents', p)).length,
        ]),
      );
    const before = count();
    const r = await folio(['import', 'strapi', '--url', base, '--token', token, '--dir', dir, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary.media).toEqual({ added: 0, kept: 6, failed: [] });
    expect(count()).toEqual(before);
    expect(readdirSync(join(dir, 'content', 'uploads', '_records'))).toHaveLength(6);
  }, 120_000);

  it('imports no document when one would share a unique value with a document of the project', async () => {
    const source1 = (await call('/api/articles?locale=en&fields[0]=slug&sort=id')).body as {
      data: Array<{ documentId: string; slug: string }>;
    };
    const taken = source1.data[0];
    // The project gets an article of its own with that slug (in the same locale, published).
    const own = await folio([
      'docs',
      'create',
      'articles',
      '--data',
      JSON.stringify({ title: 'Mine', slug: 'mine-for-now' }),
      '--json',
      '--dir',
      dir,
    ]);
    expect(own.code, own.stderr).toBe(0);
    const ownId = JSON.parse(own.stdout).data.documentId as string;
    const ownFile = join(dir, 'content', 'documents', 'articles', `${ownId}.json`);
    const text = readFileSync(ownFile, 'utf8').replace(/"mine-for-now"/g, JSON.stringify(taken.slug));
    writeFileSync(ownFile, text);
    const before = documentTexts(join(dir, 'content', 'documents'));

    const r = await folio(['import', 'strapi', '--url', base, '--token', token, '--dir', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('No document was imported');
    expect(r.stderr).toContain(
      `articles.slug ${JSON.stringify(taken.slug)} (en): ${taken.documentId} (imported), ${ownId} (in the project)`,
    );
    expect(documentTexts(join(dir, 'content', 'documents'))).toEqual(before);
    rmSync(ownFile);
  }, 120_000);

  it('says what to do with a refused token or an unreachable server', async () => {
    const refused = await folio(['import', 'strapi', '--url', base, '--token', 'nope', '--dir', dir]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/refused the token .*HTTP 401.*full-access API token/);
    const down = await folio(['import', 'strapi', '--url', 'http://127.0.0.1:9', '--token', 'x', '--dir', dir]);
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/Cannot reach http:\/\/127\.0\.0\.1:9/);
  }, 60_000);
});
