import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, TEST_FIXTURES, startTestServer, type TestServer } from './helpers/project.js';
import { RED_PNG, form } from './helpers/media.js';

const RECORDED = join(TEST_FIXTURES, 'strapi-recordings', 'content-type-builder');

function folio(args: string[]) {
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
 * The source: a Folio serving the example blog (it speaks Strapi's REST API), behind a small proxy that
 * answers the content-type-builder routes with what Strapi 5.54 answered for the same model (recorded);
 * everything else goes to the Folio.
 */
async function strapiLike(source: TestServer): Promise<{ url: string; close(): Promise<void> }> {
  const recorded: Record<string, string> = {
    '/api/content-type-builder/content-types': readFileSync(
      join(RECORDED, 'content-type-builder-content-types.json'),
      'utf8',
    ),
    '/api/content-type-builder/components': readFileSync(
      join(RECORDED, 'content-type-builder-components.json'),
      'utf8',
    ),
  };
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (recorded[path] !== undefined) {
      if (req.headers.authorization !== `Bearer ${source.token}`) {
        res.writeHead(401).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(recorded[path]);
      return;
    }
    void fetch(`${source.url}${req.url}`, { headers: { authorization: req.headers.authorization ?? '' } }).then(
      async (answer) => {
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
        res.end(Buffer.from(await answer.arrayBuffer()));
      },
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('folio import strapi --url', () => {
  let source: TestServer;
  let proxy: { url: string; close(): Promise<void> };
  let dir: string;
  let cover: { documentId: string };
  beforeAll(async () => {
    source = await startTestServer({ withExampleDocuments: true });
    // A media file linked from an article, so the library and a media field come along too.
    const uploaded = await fetch(`${source.url}/api/upload`, {
      method: 'POST',
      headers: source.auth,
      body: form([{ name: 'red.png', type: 'image/png', data: RED_PNG }], {
        fileInfo: { alternativeText: 'A red square', caption: 'Red' },
      }),
    });
    expect(uploaded.status).toBe(201);
    cover = ((await uploaded.json()) as Array<{ documentId: string }>)[0];
    const first = (await source.api('/api/articles?locale=en')).body.data[0];
    const linked = await source.api(`/api/articles/${first.documentId}?locale=en`, {
      method: 'PUT',
      body: { data: { cover: cover.documentId } },
    });
    expect(linked.status, linked.text).toBe(200);
    proxy = await strapiLike(source);
    dir = mkdtempSync(join(tmpdir(), 'folio-import-'));
    expect((await folio(['init', dir, '-q'])).code).toBe(0);
  }, 60_000);
  afterAll(async () => {
    await proxy.close();
    await source.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('copies the model, locales, media and every document in every locale and status', async () => {
    const r = await folio(['import', 'strapi', '--url', proxy.url, '--token', source.token, '--dir', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/6 content-type\(s\), 6 component\(s\), locales en, fr/);
    expect(r.stdout).toMatch(/media: 1 added, 0 already there/);
    expect(r.stdout).toMatch(/article\.secretNote/);
    const validate = await folio(['validate', '--dir', dir]);
    expect(validate.code, validate.stdout).toBe(0);

    // The imported project answers the same lists as its source.
    const copy = await startTestServer({ dir });
    try {
      const types = (await source.api('/api')).body.data as Array<{ uid: string; route: string; kind: string }>;
      for (const t of types) {
        for (const locale of ['en', 'fr']) {
          for (const status of ['published', 'draft']) {
            const path = `${t.route}?locale=${locale}&status=${status}&populate=*&pagination[pageSize]=100`;
            const [a, b] = await Promise.all([source.api(path), copy.api(path)]);
            expect(b.status, path).toBe(a.status);
            expect(b.body, path).toEqual(a.body);
          }
        }
      }
      const media = await copy.api('/api/upload/files');
      expect(media.body).toEqual([
        expect.objectContaining({ documentId: cover.documentId, alternativeText: 'A red square', caption: 'Red' }),
      ]);
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
    const r = await folio(['import', 'strapi', '--url', proxy.url, '--token', source.token, '--dir', dir, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary.media).toEqual({ added: 0, kept: 1, failed: [] });
    expect(count()).toEqual(before);
    expect(readdirSync(join(dir, 'content', 'uploads', '_records'))).toHaveLength(1);
  }, 120_000);

  it('says what to do with a refused token or an unreachable server', async () => {
    const refused = await folio(['import', 'strapi', '--url', proxy.url, '--token', 'nope', '--dir', dir]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/refused the token .*HTTP 401.*full-access API token/);
    const down = await folio(['import', 'strapi', '--url', 'http://127.0.0.1:9', '--token', 'x', '--dir', dir]);
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/Cannot reach http:\/\/127\.0\.0\.1:9/);
  }, 60_000);
});
