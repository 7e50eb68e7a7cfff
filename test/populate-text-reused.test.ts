import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openProject, type Project } from '../src/project.js';
import { parseQueryString } from '../src/query/parse-qs.js';
import { parsePopulate, type PopulateTree } from '../src/query/populate.js';
import { checkPopulate } from '../src/query/populate-check.js';
import { Reader } from '../src/query/reader.js';
import type { ReadContext } from '../src/query/context.js';
import { makeProject } from './helpers/project.js';

/**
 * A `populate` text (`author,category`) is checked and read once and reused by the next reads that ask it
 * (src/query/populate-memo.ts). Whatever order readers come in, each must get what a first reading gives it: the
 * relations its caller may find, the 400 its text earns, under the schemas and read bounds of the moment.
 */
const TEXTS = [
  'author',
  'author,category',
  'category,author',
  ' author , category ',
  'author.articles',
  'author.articles.category',
  'author.avatar',
  'seo,links',
  'blocks',
  'cover,tags',
  'localizations',
  'nope',
  'author.nope',
  'author,nope',
  'cover.x',
  'title',
  '',
];

const ARTICLE = 'api::article.article';
const CALLERS: Record<string, (uid: string) => boolean> = {
  everything: () => true,
  'no authors': (uid) => uid !== 'api::author.author',
  'no categories': (uid) => uid !== 'api::category.category',
  'articles only': (uid) => uid === ARTICLE,
};

/** A tree as plain data: names, nested trees and fragments. */
const plain = (tree: PopulateTree): unknown =>
  [...tree].map(([name, node]) => [
    name,
    plain(node.populate),
    node.on ? [...node.on].map(([uid, sub]) => [uid, plain(sub.populate)]) : null,
  ]);

/** What a reader gets for `populate=text`: the tree, or the 400's message and details. */
function outcome(read: () => PopulateTree): unknown {
  try {
    return plain(read());
  } catch (err) {
    const e = err as { status?: number; message: string; details?: unknown };
    return { status: e.status, message: e.message, details: e.details };
  }
}

describe('a populate text read once answers each later reader as a first reading would', () => {
  let project: Project;
  let cleanup: () => void;
  beforeAll(async () => {
    const made = makeProject();
    cleanup = made.cleanup;
    project = await openProject(made.dir);
  });
  afterAll(() => cleanup());

  const viaReader =
    (source: Pick<Project, 'schemas' | 'config' | 'documents'>, canFind: (uid: string) => boolean) => (text: string) =>
      outcome(() => {
        const ct = source.schemas.contentTypes.get(ARTICLE)!;
        const q = parseQueryString(`populate=${encodeURIComponent(text)}`);
        return new Reader(source, canFind).prepare(ct, q, 'find').query.selection.populate;
      });
  const firstReading =
    (source: Pick<Project, 'schemas' | 'config' | 'documents'>, canFind: (uid: string) => boolean) => (text: string) =>
      outcome(() => {
        const ct = source.schemas.contentTypes.get(ARTICLE)!;
        const ctx = {
          schemas: source.schemas,
          config: source.config,
          index: source.documents.index,
          media: source.documents.media,
          status: 'published',
          canFind,
        } as ReadContext;
        checkPopulate(ctx, ct, text);
        return parsePopulate(ctx, { kind: 'document', ct }, text);
      });

  it('for callers of different permissions asking in turn', () => {
    // Each text asked by every caller, twice round: the second round meets texts read for someone else.
    for (let round = 0; round < 2; round++)
      for (const text of TEXTS)
        for (const [name, canFind] of Object.entries(CALLERS)) {
          expect(viaReader(project, canFind)(text), `${name}: populate=${text}`).toEqual(
            firstReading(project, canFind)(text),
          );
        }
  });

  it('under other read bounds, and with a relation the caller was refused since allowed', () => {
    const everything = CALLERS.everything;
    for (const text of TEXTS) viaReader(project, everything)(text);
    const read = { ...project.config.read!, maxPopulateDepth: 1 };
    const shallow = { ...project, config: { ...project.config, read } };
    expect(viaReader(shallow, everything)('author.articles')).toMatchObject({ status: 400 });
    for (const text of TEXTS)
      expect(viaReader(shallow, everything)(text), text).toEqual(firstReading(shallow, everything)(text));
    let open = false;
    const later = (uid: string) => uid !== 'api::author.author' || open;
    expect(viaReader(project, later)('author,category')).toEqual([['category', [], null]]);
    open = true;
    expect(viaReader(project, later)('author,category')).toEqual([
      ['author', [], null],
      ['category', [], null],
    ]);
  });
});
