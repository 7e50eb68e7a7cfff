import { afterAll, describe, expect, it, vi } from 'vitest';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { loadSchemas } from '../src/schema/registry.js';
import type { ContentType } from '../src/schema/types.js';
import { decodeDocument, summarizeBody } from '../src/documents/file-format.js';
import { summarize } from '../src/documents/summary.js';
import * as here from '../src/startup/parallel-read.js';
import { META } from '../src/startup/read-block.js';
import type { ReadJob } from '../src/startup/read-worker.js';
import { REPO, makeProject } from './helpers/project.js';

/**
 * A first start reads large collections on reader threads, which only check and summarise each file
 * (summarizeBody) and leave decoding for later. Those checks must accept and refuse exactly the files
 * decodeDocument does, with the same messages, and the blocks must come back complete and in order.
 */

const schemas = loadSchemas(join(REPO, 'content'));
const typeOf = (plural: string) => [...schemas.contentTypes.values()].find((ct) => ct.pluralName === plural)!;

/** What the reader threads compute, next to what a full decode gives: equal, or the same error. */
function both(ct: ContentType, documentId: string, body: Record<string, unknown>) {
  const run = (f: () => number[]) => {
    try {
      return { summary: f() };
    } catch (err) {
      return { error: (err as Error).message };
    }
  };
  const quick = run(() => {
    const out: number[] = [];
    summarizeBody(ct, body, new Map(), out);
    return out;
  });
  const full = run(() => summarize(decodeDocument(ct, documentId, body), new Map()));
  return { quick, full };
}

describe('summarizeBody checks what decodeDocument checks', () => {
  it('gives the same summary for every example document', () => {
    let n = 0;
    for (const plural of readdirSync(join(REPO, 'content', 'documents'))) {
      const dir = join(REPO, 'content', 'documents', plural);
      for (const file of readdirSync(dir)) {
        const body = JSON.parse(readFileSync(join(dir, file), 'utf8'));
        const { quick, full } = both(typeOf(plural), file.slice(0, -5), body);
        expect(quick, `${plural}/${file}`).toEqual(full);
        expect(quick.summary).toBeDefined();
        n++;
      }
    }
    expect(n).toBeGreaterThan(20);
  });

  const ts = '2025-01-01T00:00:00.000Z';
  const version = (extra: Record<string, unknown> = {}) => ({
    id: 3,
    title: 'T',
    createdAt: ts,
    updatedAt: ts,
    publishedAt: ts,
    ...extra,
  });
  const draft = (extra: Record<string, unknown> = {}) => version({ id: 2, publishedAt: null, ...extra });
  // [what, plural, body, expected summary or error fragment]
  const CASES: Array<[string, string, Record<string, unknown>, number[] | string]> = [
    ['draft and published', 'articles', { locales: { en: { draft: draft(), published: version() } } }, [0, 2, 3]],
    [
      'two locales',
      'articles',
      { locales: { en: { draft: draft() }, fr: { draft: draft({ id: 9 }) } } },
      [0, 2, -1, 1, 9, -1],
    ],
    [
      'published only: the draft is recreated (id 0, given at load)',
      'articles',
      { locales: { en: { published: version() } } },
      [0, 0, 3],
    ],
    [
      'ids that are not positive safe integers become 0',
      'articles',
      { locales: { en: { draft: draft({ id: -5 }), published: version({ id: '7' }) } } },
      [0, 0, 0],
    ],
    ['a fractional id', 'articles', { locales: { en: { draft: draft({ id: 1.5 }) } } }, [0, 0, -1]],
    [
      'timestamps in another ISO form',
      'articles',
      { locales: { en: { draft: draft({ createdAt: '2025-01-01T00:00:00Z' }) } } },
      [0, 2, -1],
    ],
    [
      'non-localized, no D&P',
      'tags',
      { published: { id: 4, name: 'x', createdAt: ts, updatedAt: ts, publishedAt: ts } },
      [0, -1, 4],
    ],
    ['no locales', 'articles', {}, '"locales" must be an object'],
    ['locales as an array', 'articles', { locales: [] }, '"locales" must be an object'],
    ['no locale at all', 'articles', { locales: {} }, 'holds no version'],
    ['a bad locale code', 'articles', { locales: { 'e n': { draft: draft() } } }, 'is not a locale code'],
    ['a slot that is not an object', 'articles', { locales: { en: null } }, 'locales.en must be an object'],
    ['an empty slot', 'articles', { locales: { en: {} } }, 'locales.en holds no version'],
    [
      'a slot with another key',
      'articles',
      { locales: { en: { draft: draft(), old: {} } } },
      'locales.en.old is not a version',
    ],
    [
      'a version that is not an object',
      'articles',
      { locales: { en: { draft: 'x' } } },
      'locales.en.draft must be an object',
    ],
    [
      'an unknown attribute',
      'articles',
      { locales: { en: { draft: draft({ subtitle: 'x' }) } } },
      'locales.en.draft.subtitle is not an attribute',
    ],
    [
      'a broken createdAt',
      'articles',
      { locales: { en: { draft: draft({ createdAt: 'yesterday' }) } } },
      'locales.en.draft.createdAt must be an ISO date',
    ],
    [
      'a published version without publishedAt',
      'articles',
      { locales: { en: { draft: draft(), published: version({ publishedAt: null }) } } },
      'locales.en.published.publishedAt must be an ISO date',
    ],
    [
      'a draft on a type without D&P',
      'tags',
      { draft: { id: 4, name: 'x', createdAt: ts, updatedAt: ts, publishedAt: null } },
      'has no draft & publish',
    ],
    ['nothing in a non-localized file', 'tags', {}, 'document holds no version'],
  ];
  it.each(CASES)('%s', (_what, plural, body, expected) => {
    const { quick, full } = both(typeOf(plural), 'x1', body);
    expect(quick).toEqual(full);
    if (typeof expected === 'string') expect(quick.error).toContain(expected);
    else expect(quick.summary).toEqual(expected);
  });
});

describe('reading a folder in blocks', () => {
  const made = makeProject();
  afterAll(() => made.cleanup());
  const dir = join(made.contentDir, 'documents', 'tags');
  mkdirSync(dir, { recursive: true });
  const ts = '2025-01-01T00:00:00.000Z';
  const count = here.BLOCK_FILES * 2 + 7;
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const documentId = `t${String(i).padStart(6, '0')}`;
    ids.push(documentId);
    if (i === 5) continue; // listed, but gone before it was read
    const text =
      i === here.BLOCK_FILES + 1
        ? '{ "documentId": '
        : `${JSON.stringify(
            { documentId, published: { id: i + 1, name: `tag ${i}`, createdAt: ts, updatedAt: ts, publishedAt: ts } },
            null,
            2,
          )}\n`;
    writeFileSync(join(dir, `${documentId}.json`), text);
  }
  const tag = typeOf('tags');

  async function collect(read: typeof here.readInWorkers, keep: boolean) {
    const out: Array<{ documentId: string; id: number; text?: string }> = [];
    const problems: string[] = [];
    const blockSizes: number[] = [];
    for await (const block of read(made.contentDir, ids, tag, keep)) {
      blockSizes.push(block.ids.length);
      problems.push(...block.problems.map((p) => p.file));
      for (const at of block.starts) {
        const m = block.meta;
        // A matcher per file is most of this test's own work: it runs only for a count that is wrong.
        if (m[at + META.count] !== 3) expect(m[at + META.count], block.ids[m[at + META.index]]).toBe(3);
        const chunk = block.chunks[m[at + META.chunk]];
        out.push({
          documentId: block.ids[m[at + META.index]],
          id: m[at + META.summary + 2],
          ...(chunk ? { text: chunk.text(m[at + META.offset], m[at + META.length]) } : {}),
        });
      }
    }
    return { out, problems, blockSizes };
  }

  function check({ out, problems, blockSizes }: Awaited<ReturnType<typeof collect>>, keep: boolean) {
    expect(blockSizes).toEqual([here.BLOCK_FILES, here.BLOCK_FILES, 7]);
    // Every readable file, in documentId order, with its id (and its exact text when kept); the broken one reported.
    expect(out.map((d) => d.documentId)).toEqual(ids.filter((_, i) => i !== 5 && i !== here.BLOCK_FILES + 1));
    expect(
      out.every(
        (d, k) => d.id === Number(d.documentId.slice(1)) + 1 && (k === 0 || d.documentId > out[k - 1].documentId),
      ),
    ).toBe(true);
    const text = readFileSync(join(dir, `${ids[11]}.json`), 'utf8');
    expect(out[10]).toEqual(keep ? { documentId: ids[11], id: 12, text } : { documentId: ids[11], id: 12 });
    expect(out.filter((d) => d.text !== undefined).length).toBe(keep ? out.length : 0);
    expect(problems).toEqual([join(dir, `${ids[here.BLOCK_FILES + 1]}.json`)]);
  }

  it('on this thread (when reader threads cannot start)', async () => {
    // The sources have no compiled worker next to them, so every block is read here.
    for (const keep of [false, true]) check(await collect(here.readInWorkers, keep), keep);
  });

  it('on reader threads (the compiled build)', async () => {
    const built = join(REPO, 'dist', 'startup', 'parallel-read.js');
    expect(existsSync(built), 'npm install builds dist/').toBe(true);
    const dist = (await import(pathToFileURL(built).href)) as typeof here;
    expect(dist.parallelReadAvailable()).toBe(true);
    for (const keep of [false, true]) check(await collect(dist.readInWorkers, keep), keep);
  });

  it('on this thread for what reader threads stopped part way did not deliver', async () => {
    const dist = (await import(pathToFileURL(join(REPO, 'dist', 'startup', 'parallel-read.js')).href)) as typeof here;
    // The job handed to the threads shares which blocks they claimed: watching it (and the threads' events)
    // stops them at each point that leaves the main thread a different share of the blocks to read itself,
    // whatever the machine's speed. Each block must still come once, in order, from one side or the other.
    const handed = vi.spyOn(Worker.prototype, 'postMessage');
    const STOPS = {
      // Nothing claimed: every block is read here, once the threads are gone.
      'before the threads start': async () => undefined,
      // A block claimed and being read when its thread goes: read here, while the other thread may still deliver.
      'while a thread reads its first block': async (threads: Worker[], job: ReadJob) => {
        await Promise.race(threads.map((t) => once(t, 'online')));
        const claimedBy = new Int32Array(job.claimedBy);
        while (claimedBy.every((w) => w < 0)) await new Promise((resolve) => setImmediate(resolve));
      },
      // Some blocks delivered, the rest claimed or not.
      'once a first block is delivered': (threads: Worker[]) => Promise.race(threads.map((t) => once(t, 'message'))),
      // Every block delivered: the threads ended on their own.
      'once every block is delivered': (threads: Worker[]) => Promise.all(threads.map((t) => once(t, 'exit'))),
    };
    try {
      for (const reached of Object.values(STOPS)) {
        for (const keep of [false, true]) {
          const stopping = (d: string, list: string[], ct: typeof tag, k = false) => {
            handed.mockClear();
            const readers = dist.startReaders(d, ct, 2);
            const blocks = readers.read(list, k);
            const threads = handed.mock.contexts as Worker[];
            const job = handed.mock.calls[0][0] as ReadJob;
            return (async function* () {
              await reached(threads, job);
              readers.close();
              yield* blocks;
            })();
          };
          check(await collect(stopping, keep), keep);
        }
      }
    } finally {
      handed.mockRestore();
    }
  });
});
