import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, makeProject } from './helpers/project.js';
import { serveProcess } from './helpers/serve.js';
import { openProject } from '../src/project.js';
import { createApiToken } from '../src/auth/service.js';
import { TEMP_MARK } from '../src/store/atomic.js';

/**
 * The server is killed (SIGKILL) in the middle of a burst of writes, several times over, while CLI runs
 * write the same documents: every write that was acknowledged (a 200, a CLI exit 0) must be on disk,
 * every document file must parse, and the server must start again over what is left.
 */
const ROUNDS = 3;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const cliUpdate = (dir: string, id: string, locale: string, title: string) =>
  new Promise<number>((resolve) =>
    execFile(
      process.execPath,
      [BIN, 'docs', 'update', 'articles', id, '--locale', locale, '--data', JSON.stringify({ title }), '--dir', dir],
      (err) => resolve(err ? 1 : 0),
    ),
  );

describe('a server killed during a write burst, with CLI writes racing it', () => {
  const p = makeProject();
  const articles = join(p.contentDir, 'documents', 'articles');
  const ids: string[] = [];
  let token = '';
  /** Per document and locale (one writer each): the last number acknowledged, and the last one sent. */
  const acked = new Map<string, number>();
  const sent = new Map<string, number>();

  beforeAll(async () => {
    const project = await openProject(p.dir);
    for (let i = 0; i < 3; i++) {
      const v = await project.documents.create('article', { title: `api-0` });
      await project.documents.update('article', v.documentId, { title: 'cli-0' }, { locale: 'fr' });
      ids.push(v.documentId);
    }
    ({ accessKey: token } = await createApiToken(p.dir, { name: 'crash', type: 'full-access' }));
  });
  afterAll(() => p.cleanup());

  /** The number in a title as the file holds it now, for one document and locale. */
  const onDisk = (id: string, locale: string) => {
    const v = JSON.parse(readFileSync(join(articles, `${id}.json`), 'utf8')).locales[locale].published;
    return Number(String(v.title).split('-')[1]);
  };

  it('loses no acknowledged write, from the API or the CLI, and leaves every file readable', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { child: server, base } = await serveProcess(p.dir);
      let killed = false;
      let apiAcks = 0;
      let cliAcks = 0;
      // The API writes the en locale of every document, each from its own loop, as fast as it answers.
      const apiLoops = ids.map(async (id) => {
        const key = `${id}/en`;
        while (!killed) {
          const n = (sent.get(key) ?? 0) + 1;
          sent.set(key, n);
          let res: Response;
          try {
            res = await fetch(`${base}/api/articles/${id}?locale=en`, {
              method: 'PUT',
              headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
              body: JSON.stringify({ data: { title: `api-${n}` } }),
            });
          } catch {
            // The server is gone: this write was never acknowledged.
            continue;
          }
          if (res.status !== 200) expect.fail(`PUT answered ${res.status}: ${await res.text()}`);
          acked.set(key, n);
          apiAcks++;
        }
      });
      // The CLI writes the fr locale of the same documents meanwhile, one run after another.
      const cliLoop = (async () => {
        for (let k = 0; !killed || k < 2; k++) {
          const id = ids[k % ids.length];
          const key = `${id}/fr`;
          const n = (sent.get(key) ?? 0) + 1;
          sent.set(key, n);
          if ((await cliUpdate(p.dir, id, 'fr', `cli-${n}`)) === 0) {
            acked.set(key, n);
            cliAcks++;
          } else expect.fail(`folio docs update exited non-zero (round ${round})`);
        }
      })();
      // Killed once both writers have had writes acknowledged this round, at a random moment of the burst after.
      for (let t = 0; t < 1500 && (cliAcks < 1 || apiAcks < 5); t++) await sleep(10);
      await sleep(Math.random() * 300);
      server.kill('SIGKILL');
      killed = true;
      await new Promise((r) => server.once('exit', r));
      await Promise.all([...apiLoops, cliLoop]);

      for (const name of readdirSync(articles)) {
        if (name.startsWith(TEMP_MARK)) continue;
        expect(() => JSON.parse(readFileSync(join(articles, name), 'utf8')), name).not.toThrow();
      }
      for (const id of ids)
        for (const locale of ['en', 'fr']) {
          const key = `${id}/${locale}`;
          const n = onDisk(id, locale);
          // What is on disk is the last acknowledged write, or one sent after it whose answer the kill cut off.
          expect(n, `${key} in round ${round}`).toBeGreaterThanOrEqual(acked.get(key) ?? 0);
          expect(n, key).toBeLessThanOrEqual(sent.get(key) ?? 0);
        }
    }
    expect([...acked.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(ROUNDS * 5);

    // The server starts again over what the kills left, and serves every acknowledged write.
    const { child, base } = await serveProcess(p.dir);
    try {
      for (const id of ids)
        for (const locale of ['en', 'fr']) {
          const res = await fetch(`${base}/api/articles/${id}?locale=${locale}`, {
            headers: { authorization: `Bearer ${token}` },
          });
          const title = String(((await res.json()) as { data: { title: string } }).data.title);
          expect(Number(title.split('-')[1])).toBe(onDisk(id, locale));
        }
    } finally {
      child.kill('SIGTERM');
    }
  }, 180_000);
});
