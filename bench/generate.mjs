// Writes a temp Folio project with N generated articles (each with an author and a category) straight in
// Folio's on-disk format, for the benchmark. Usage: node bench/generate.mjs <count> [dir]
// (1,000,000 articles take a few minutes and about 1.5 GB of disk.)
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';

const REPO = resolve(import.meta.dirname, '..');
export const WORDS = [
  'static',
  'sites',
  'node',
  'queries',
  'content',
  'design',
  'cache',
  'layout',
  'deploy',
  'schema',
  'testing',
  'git',
  'review',
  'index',
  'search',
  'fast',
  'render',
  'stream',
  'edge',
  'server',
  'client',
  'build',
  'token',
  'locale',
];

const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
export const newId = () => {
  const b = randomBytes(24);
  let s = alphabet[b[0] % 26];
  for (let i = 1; i < 24; i++) s += alphabet[b[i] % 36];
  return s;
};

export function generate(count, dir = mkdtempSync(join(tmpdir(), 'folio-bench-'))) {
  const content = join(dir, 'content');
  mkdirSync(content, { recursive: true });
  cpSync(join(REPO, 'content', 'types'), join(content, 'types'), { recursive: true });
  cpSync(join(REPO, 'content', 'components'), join(content, 'components'), { recursive: true });
  // The example's permissions: the public role may read articles, authors and categories.
  cpSync(join(REPO, 'content', 'permissions.json'), join(content, 'permissions.json'));
  writeFileSync(
    join(content, 'folio.json'),
    `${JSON.stringify(
      {
        locales: [
          { code: 'en', name: 'English (en)' },
          { code: 'fr', name: 'French (fr)' },
        ],
        defaultLocale: 'en',
      },
      null,
      2,
    )}\n`,
  );
  const ts = '2025-01-01T00:00:00.000Z';
  const made = new Set();
  const write = (plural, doc) => {
    const d = join(content, 'documents', plural);
    if (!made.has(d)) mkdirSync(d, { recursive: true });
    made.add(d);
    writeFileSync(join(d, `${doc.documentId}.json`), `${JSON.stringify(doc, null, 2)}\n`);
  };
  const authors = [],
    categories = [];
  for (let i = 0; i < 50; i++) {
    const documentId = newId();
    authors.push(documentId);
    write('authors', {
      documentId,
      published: {
        id: i + 1,
        name: `Author ${i}`,
        email: `author${i}@example.com`,
        avatar: null,
        bio: 'Writes things.',
        createdAt: ts,
        updatedAt: ts,
        publishedAt: ts,
      },
    });
  }
  for (let i = 0; i < 10; i++) {
    const documentId = newId();
    categories.push(documentId);
    write('categories', {
      documentId,
      published: {
        id: i + 1,
        name: `Category ${i}`,
        slug: `category-${i}`,
        description: null,
        createdAt: ts,
        updatedAt: ts,
        publishedAt: ts,
      },
    });
  }
  for (let i = 0; i < count; i++) {
    const documentId = newId();
    const title = `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} ${WORDS[(i * 13) % WORDS.length]} ${i}`;
    const version = (id, published) => ({
      id,
      title,
      slug: `article-${i}`,
      description: `About ${title}.`,
      body: null,
      cover: null,
      author: authors[i % authors.length],
      category: categories[i % categories.length],
      tags: [],
      blocks: [],
      seo: null,
      links: [],
      views: (i * 7919) % 1001,
      rating: null,
      featured: i % 10 === 0,
      publishDate: '2024-05-01',
      secretNote: null,
      createdAt: ts,
      updatedAt: ts,
      publishedAt: published ? ts : null,
    });
    write('articles', {
      documentId,
      locales: { en: { draft: version(2 * i + 1, false), published: version(2 * i + 2, true) } },
    });
  }
  return dir;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  console.log(generate(Number(process.argv[2] ?? 1000), process.argv[3]));
}
