import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { makeProject, startTestServer, type TestServer } from './project.js';

/**
 * Two types written straight into a project's content/ (as a checkout does): writers, and posts each pointing at
 * one of them (`writer`, whose inverse is the writer's `posts`), so that an inverse relation holds many rows.
 */
export const WRITER = 'api::writer.writer';
export const POST = 'api::post.post';

const at = '2025-01-01T00:00:00.000Z';
export const writerId = (w: number) => `writer${String(w).padStart(18, '0')}`;
export const postId = (p: number) => `post${String(p).padStart(20, '0')}`;

const type = (singular: string, plural: string, attributes: Record<string, unknown>) => ({
  kind: 'collectionType',
  collectionName: plural,
  info: { singularName: singular, pluralName: plural, displayName: singular },
  options: { draftAndPublish: false },
  attributes,
});

/** Writes the two types, `writers` writers and `posts` posts (post p points at writer p % writers). */
export function writeWritersAndPosts(contentDir: string, writers: number, posts: number) {
  const types = join(contentDir, 'types');
  const writerType = type('writer', 'writers', {
    name: { type: 'string' },
    posts: { type: 'relation', relation: 'oneToMany', target: POST, mappedBy: 'writer' },
  });
  const postType = type('post', 'posts', {
    title: { type: 'string' },
    writer: { type: 'relation', relation: 'manyToOne', target: WRITER, inversedBy: 'posts' },
  });
  writeFileSync(join(types, 'writer.json'), `${JSON.stringify(writerType, null, 2)}\n`);
  writeFileSync(join(types, 'post.json'), `${JSON.stringify(postType, null, 2)}\n`);
  const file = (plural: string, documentId: string, published: Record<string, unknown>) => {
    const body = { documentId, published: { ...published, createdAt: at, updatedAt: at, publishedAt: at } };
    writeFileSync(join(contentDir, 'documents', plural, `${documentId}.json`), `${JSON.stringify(body)}\n`);
  };
  mkdirSync(join(contentDir, 'documents', 'writers'), { recursive: true });
  mkdirSync(join(contentDir, 'documents', 'posts'), { recursive: true });
  for (let w = 0; w < writers; w++) file('writers', writerId(w), { id: w + 1, name: `Writer ${w}` });
  for (let p = 0; p < posts; p++)
    file('posts', postId(p), { id: p + 1, title: `Post ${p}`, writer: writerId(p % writers) });
}

/**
 * Sends `slow` and, at once behind it, a simple GET; answers which of the two was answered first, and the slow
 * one's answer. A request the server answers in one turn of its event loop comes first whatever follows it; one
 * done in slices lets the simple GET through meanwhile.
 */
export async function firstAnswered(
  s: TestServer,
  slow: () => ReturnType<TestServer['api']>,
): Promise<{ first: 'slow' | 'simple'; answer: Awaited<ReturnType<TestServer['api']>> }> {
  // Two connections opened first: neither request then waits for one to be set up.
  const simpleGet = () => s.api('/api/categories?pagination[pageSize]=1');
  await Promise.all([simpleGet(), simpleGet()]);
  const order: string[] = [];
  const slowDone = slow().then((a) => {
    order.push('slow');
    return a;
  });
  const simple = simpleGet().then((a) => {
    order.push('simple');
    return a;
  });
  const [answer, simpleAnswer] = await Promise.all([slowDone, simple]);
  if (simpleAnswer.status !== 200) throw new Error(`the simple GET answered ${simpleAnswer.status}`);
  return { first: order[0] as 'slow' | 'simple', answer };
}

/**
 * Writes a project's content with `write`, serves it for the file's tests (its types prepared first unless
 * `prepared` is false) and hands the server to `started`; stops it and removes the project after them.
 */
export function serveForTests(
  made: ReturnType<typeof makeProject>,
  write: (contentDir: string) => void,
  started: (s: TestServer) => void,
  prepared = true,
) {
  let server: TestServer | undefined;
  beforeAll(async () => {
    write(made.contentDir);
    server = await startTestServer({ dir: made.dir });
    if (prepared) await server.project.documents.index.whenPrepared();
    started(server);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    made.cleanup();
  });
}

/** `serveForTests` over a new project of `writers` writers and `posts` posts (see writeWritersAndPosts); answers it. */
export function serveWritersAndPosts(
  writers: number,
  posts: number,
  started: (s: TestServer) => void,
  prepared = true,
): ReturnType<typeof makeProject> {
  const made = makeProject();
  serveForTests(made, (dir) => writeWritersAndPosts(dir, writers, posts), started, prepared);
  return made;
}
