import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openProject } from '../src/project.js';
import type { AccessPolicy } from '../src/http-kit/access.js';
import { LocalMediaLibrary } from '../src/upload/library.js';
import { startTestServer, type TestServer } from './helpers/project.js';
import { TEMP_MARK } from '../src/store/atomic.js';
import { eventually } from './helpers/eventually.js';
import { BLUE_JPEG, ELF, PDF, RED_PNG, SVG, filesUnder, form, png, sha256, type UploadPart } from './helpers/media.js';

const FILE_KEYS = [
  'id',
  'documentId',
  'name',
  'alternativeText',
  'caption',
  'focalPoint',
  'width',
  'height',
  'formats',
  'hash',
  'ext',
  'mime',
  'size',
  'url',
  'previewUrl',
  'provider',
  'provider_metadata',
  'createdAt',
  'updatedAt',
  'publishedAt',
];

const hasSharp = await import('sharp').then(
  () => true,
  () => false,
);

async function upload(s: TestServer, files: UploadPart[], fields: Record<string, unknown> = {}, query = '') {
  const res = await fetch(`${s.url}/api/upload${query}`, {
    method: 'POST',
    body: form(files, fields),
    headers: s.auth,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** Files under content/uploads/ other than records. */
const binaries = (s: TestServer) => filesUnder(join(s.contentDir, 'uploads')).filter((f) => !f.startsWith('_records'));
const records = (s: TestServer) => filesUnder(join(s.contentDir, 'uploads', '_records'));

async function createArticle(s: TestServer, data: Record<string, unknown>) {
  const created = await s.api('/api/articles', { method: 'POST', body: { data } });
  expect(created.status).toBe(201);
  const documentId = created.body.data.documentId as string;
  const read = await s.api(`/api/articles/${documentId}`);
  return { documentId, id: read.body.data.id as number };
}

describe('upload plugin over HTTP', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s.stop();
  });

  it('uploads one file: 201, a bare array of Strapi file objects, content-hash named, one record on disk', async () => {
    const res = await upload(s, [{ name: 'red.png', type: 'image/png', data: RED_PNG }]);
    expect(res.status).toBe(201);
    expect(Array.isArray(res.body)).toBe(true);
    const f = res.body[0];
    expect(Object.keys(f)).toEqual([...FILE_KEYS, 'isUrlSigned']);
    expect(f).toMatchObject({
      name: 'red.png',
      alternativeText: null,
      caption: null,
      focalPoint: null,
      width: 4,
      height: 4,
      formats: null,
      ext: '.png',
      mime: 'image/png',
      size: 0.07,
      previewUrl: null,
      provider: 'local',
      provider_metadata: null,
      isUrlSigned: false,
    });
    expect(f.documentId).toMatch(/^[a-z][a-z0-9]{23}$/);
    expect(f.hash).toBe(`red_${sha256(RED_PNG).slice(0, 10)}`);
    expect(f.url).toBe(`/uploads/${f.hash}.png`);
    expect(f.publishedAt).toBe(f.createdAt);
    expect(readFileSync(join(s.contentDir, 'uploads', `${f.hash}.png`)).equals(RED_PNG)).toBe(true);
    const recordText = readFileSync(join(s.contentDir, 'uploads', '_records', `${f.documentId}.json`), 'utf8');
    const { isUrlSigned, ...stored } = f;
    void isUrlSigned;
    expect(recordText).toBe(`${JSON.stringify(stored, null, 2)}\n`);
  });

  const severalFilesTitle =
    'uploads several files with fileInfo per file; the same bytes under the same name get distinct names';
  it(severalFilesTitle, async () => {
    const res = await upload(
      s,
      [
        { name: 'a.png', type: 'image/png', data: RED_PNG },
        { name: 'info.png', type: 'image/png', data: png(8, 6, [0, 0, 255]) },
        { name: 'a.png', type: 'image/png', data: RED_PNG },
      ],
      {
        fileInfo: [
          {},
          { name: 'custom-name.png', alternativeText: 'A blue box', caption: 'Caption', focalPoint: { x: 10, y: 90 } },
          {},
        ],
      },
    );
    expect(res.status).toBe(201);
    expect(res.body).toHaveLength(3);
    const [a, info, again] = res.body;
    expect(info).toMatchObject({
      name: 'custom-name.png',
      alternativeText: 'A blue box',
      caption: 'Caption',
      focalPoint: { x: 10, y: 90 },
      width: 8,
      height: 6,
    });
    expect(info.hash).toMatch(/^custom_name_[0-9a-f]{10}$/);
    expect(a.hash).toMatch(/^a_[0-9a-f]{10}$/);
    expect(again.hash).toMatch(/^a_[0-9a-f]{10}$/);
    expect(again.hash).not.toBe(a.hash);
    expect(new Set(res.body.map((f: { id: number }) => f.id)).size).toBe(3);
    for (const f of res.body) expect((await fetch(`${s.url}${f.url}`)).status).toBe(200);
  });

  it('reads the type from the bytes: a text file, a PDF; non-images have null dimensions and formats', async () => {
    const res = await upload(s, [
      { name: 'notes.txt', type: 'text/plain', data: Buffer.from('hello upload\n') },
      { name: 'doc.pdf', type: 'application/octet-stream', data: PDF },
      { name: 'README.md', type: 'application/octet-stream', data: Buffer.from('# Title\n') },
    ]);
    expect(res.status).toBe(201);
    expect(res.body.map((f: { mime: string; ext: string }) => [f.mime, f.ext])).toEqual([
      ['text/plain', '.txt'],
      ['application/pdf', '.pdf'],
      ['text/markdown', '.md'],
    ]);
    expect(res.body[0]).toMatchObject({ width: null, height: null, formats: null, size: 0.01 });
  });

  // Formats need the optional sharp (without it, `formats: null`: media-cli.test.ts, FOLIO_NO_SHARP=1); CI has it.
  it.skipIf(!hasSharp)(
    "measures images and makes Strapi's formats (thumbnail 245x156 fit-inside, large/medium/small)",
    async () => {
      const big = png(1200, 800);
      const res = await upload(s, [
        { name: 'red-box.png', type: 'image/png', data: big },
        { name: 'blue.jpg', type: 'image/jpeg', data: BLUE_JPEG },
      ]);
      expect(res.status).toBe(201);
      const [p, j] = res.body;
      expect(p).toMatchObject({ width: 1200, height: 800, mime: 'image/png', ext: '.png' });
      expect(j).toMatchObject({ width: 300, height: 200, mime: 'image/jpeg', ext: '.jpg' });
      expect(Object.keys(p.formats)).toEqual(['thumbnail', 'large', 'medium', 'small']);
      expect(p.formats.thumbnail).toMatchObject({
        name: 'thumbnail_red-box.png',
        hash: `thumbnail_${p.hash}`,
        ext: '.png',
        mime: 'image/png',
        path: null,
        width: 234,
        height: 156,
        url: `/uploads/thumbnail_${p.hash}.png`,
      });
      expect(Object.keys(p.formats.thumbnail)).toEqual([
        'name',
        'hash',
        'ext',
        'mime',
        'path',
        'width',
        'height',
        'size',
        'sizeInBytes',
        'url',
      ]);
      expect([p.formats.large.width, p.formats.large.height]).toEqual([1000, 667]);
      expect([p.formats.medium.width, p.formats.medium.height]).toEqual([750, 500]);
      expect([p.formats.small.width, p.formats.small.height]).toEqual([500, 333]);
      for (const fmt of Object.values(p.formats) as Array<{ url: string; sizeInBytes: number; size: number }>) {
        const got = await fetch(`${s.url}${fmt.url}`);
        expect(got.status).toBe(200);
        expect(got.headers.get('content-type')).toBe('image/png');
        expect((await got.arrayBuffer()).byteLength).toBe(fmt.sizeInBytes);
        expect(fmt.size).toBe(Math.round(fmt.sizeInBytes / 10) / 100);
      }
      // 300x200 is wider than the thumbnail box but smaller than every breakpoint.
      expect(Object.keys(j.formats)).toEqual(['thumbnail']);
      expect([j.formats.thumbnail.width, j.formats.thumbnail.height]).toEqual([234, 156]);
    },
  );

  const refusesTitle =
    'refuses SVG and executables by their bytes, whatever name and type the client gives; nothing is stored';
  it(refusesTitle, async () => {
    const before = { bin: binaries(s), rec: records(s) };
    const cases: Array<[UploadPart, number, string]> = [
      [{ name: 'logo.svg', type: 'image/svg+xml', data: SVG }, 400, "File type 'image/svg+xml' is not allowed"],
      [{ name: 'logo.png', type: 'image/png', data: SVG }, 400, "File type 'image/svg+xml' is not allowed"],
      [{ name: 'photo.png', type: 'image/png', data: ELF }, 400, "File type 'application/x-elf' is not allowed"],
      [
        {
          name: 'setup.exe',
          type: 'application/octet-stream',
          data: Buffer.concat([Buffer.from('MZ'), Buffer.alloc(300)]),
        },
        400,
        "File type 'application/x-msdownload' is not allowed",
      ],
      [
        {
          name: 'page.jpg',
          type: 'image/jpeg',
          data: Buffer.from('<!DOCTYPE html><html><script>alert(1)</script></html>'),
        },
        400,
        "File type 'text/html' is not allowed",
      ],
      [
        { name: 'run.txt', type: 'text/plain', data: Buffer.from('#!/bin/sh\nrm -rf /\n') },
        400,
        "File type 'text/x-shellscript' is not allowed",
      ],
      [{ name: 'fake.png', type: 'image/png', data: Buffer.from('just some text') }, 400, 'File is not a valid image'],
    ];
    for (const [part, status, message] of cases) {
      const res = await upload(s, [part]);
      expect([part.name, res.status, res.body.error.message]).toEqual([part.name, status, message]);
    }
    // Every file of a request refused: the first one's message.
    const allBad = await upload(s, [
      { name: 'bad.svg', type: 'image/svg+xml', data: SVG },
      { name: 'bad.exe', type: 'application/octet-stream', data: ELF },
    ]);
    expect(allBad.status).toBe(400);
    expect(allBad.body.error.message).toBe("File type 'image/svg+xml' is not allowed");
    // A corrupt image among good ones refuses the whole request.
    const corrupt = await upload(s, [
      { name: 'ok.png', type: 'image/png', data: RED_PNG },
      { name: 'fake.png', type: 'image/png', data: Buffer.from('just some text') },
    ]);
    expect(corrupt.status).toBe(400);
    expect({ bin: binaries(s), rec: records(s) }).toEqual(before);
    expect(filesUnder(join(s.contentDir, 'uploads')).some((f) => f.includes('.folio-tmp-'))).toBe(false);
  });

  it('stores the good files of a request and leaves out those of a refused type, as Strapi does', async () => {
    const before = records(s).length;
    const mixed = await upload(s, [
      { name: 'bad.svg', type: 'image/svg+xml', data: SVG },
      { name: 'kept.png', type: 'image/png', data: RED_PNG },
    ]);
    expect(mixed.status).toBe(201);
    expect(mixed.body.map((f: { name: string }) => f.name)).toEqual(['kept.png']);
    expect(records(s).length).toBe(before + 1);
    expect(filesUnder(join(s.contentDir, 'uploads')).some((f) => f.endsWith('.svg'))).toBe(false);
  });

  it('keeps client-supplied names out of file-system paths', async () => {
    const res = await upload(s, [{ name: '../../../evil.png', type: 'image/png', data: RED_PNG }]);
    expect(res.status).toBe(201);
    expect(res.body[0].name).toBe('evil.png');
    expect(res.body[0].hash).toMatch(/^evil_[0-9a-f]{10}$/);
    // The file this test sent, wherever it landed in the project (the server writes files of its own meanwhile).
    const sent = filesUnder(dirname(s.contentDir)).filter((f) => f.includes('evil'));
    expect(sent).toEqual([join('content', 'uploads', `${res.body[0].hash}.png`)]);
    expect(existsSync(join(dirname(s.contentDir), '..', 'evil.png'))).toBe(false);

    const bad = await upload(s, [{ name: 'ok.png', type: 'image/png', data: RED_PNG }], {
      fileInfo: { name: '../../etc/passwd' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({
      name: 'ApplicationError',
      message: 'File name contains invalid characters',
    });

    const dotted = await upload(s, [{ name: '....png', type: 'image/png', data: RED_PNG }], {
      fileInfo: { name: '..' },
    });
    expect(dotted.status).toBe(201);
    expect(dotted.body[0].hash).toMatch(/^file_[0-9a-f]{10}$/);

    for (const path of [
      '/uploads/..%2Fcontent%2Ffolio.json',
      '/uploads/%2e%2e/folio.json',
      '/uploads/_records',
      '/uploads/../content/folio.json',
      `/uploads/_records%2F${res.body[0].documentId}.json`,
      '/uploads/folio.json',
      '/uploads/.folio-tmp-x',
    ]) {
      expect([path, (await fetch(`${s.url}${path}`)).status]).toEqual([path, 404]);
    }
  });

  it('serves stored files with Content-Type, ETag, Last-Modified, 304 and byte ranges', async () => {
    const data = png(50, 40, [1, 2, 3]);
    const [f] = (await upload(s, [{ name: 'range.png', type: 'image/png', data }])).body;
    const full = await fetch(`${s.url}${f.url}`);
    expect(full.status).toBe(200);
    expect(full.headers.get('content-type')).toBe('image/png');
    expect(full.headers.get('accept-ranges')).toBe('bytes');
    expect(full.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Number(full.headers.get('content-length'))).toBe(data.length);
    expect(Buffer.from(await full.arrayBuffer()).equals(data)).toBe(true);
    const etag = full.headers.get('etag')!;
    const lastModified = full.headers.get('last-modified')!;
    expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(new Date(lastModified).getTime()).toBeGreaterThan(0);

    expect((await fetch(`${s.url}${f.url}`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    expect((await fetch(`${s.url}${f.url}`, { headers: { 'if-none-match': `W/${etag}, "other"` } })).status).toBe(304);
    expect((await fetch(`${s.url}${f.url}`, { headers: { 'if-none-match': '"nope"' } })).status).toBe(200);
    expect((await fetch(`${s.url}${f.url}`, { headers: { 'if-modified-since': lastModified } })).status).toBe(304);

    const part = await fetch(`${s.url}${f.url}`, { headers: { range: 'bytes=0-9' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 0-9/${data.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(data.subarray(0, 10))).toBe(true);
    const tail = await fetch(`${s.url}${f.url}`, { headers: { range: 'bytes=-5' } });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(data.subarray(data.length - 5))).toBe(true);
    const open = await fetch(`${s.url}${f.url}`, { headers: { range: `bytes=${data.length - 3}-` } });
    expect(Buffer.from(await open.arrayBuffer()).equals(data.subarray(data.length - 3))).toBe(true);
    const bad = await fetch(`${s.url}${f.url}`, { headers: { range: `bytes=${data.length}-` } });
    expect(bad.status).toBe(416);
    expect(bad.headers.get('content-range')).toBe(`bytes */${data.length}`);
    expect((await fetch(`${s.url}${f.url}`, { headers: { range: 'bytes=0-1', 'if-range': '"stale"' } })).status).toBe(
      200,
    );
    expect((await fetch(`${s.url}${f.url}`, { headers: { range: 'bytes=0-1', 'if-range': etag } })).status).toBe(206);

    const head = await fetch(`${s.url}${f.url}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBe(data.length);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    expect((await fetch(`${s.url}${f.url}`, { method: 'DELETE' })).status).toBe(405);
  });

  const listsTitle =
    'lists files as Strapi does: bare array, filters/sort/fields, root ' +
    'start/limit, pagination ignored; /page is wrapped';
  it(listsTitle, async () => {
    const all = await s.api('/api/upload/files');
    expect(all.status).toBe(200);
    expect(Array.isArray(all.body)).toBe(true);
    const ids = all.body.map((f: { id: number }) => f.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => a - b));
    expect(all.body.every((f: Record<string, unknown>) => f.isUrlSigned === false)).toBe(true);

    const text = await s.api('/api/upload/files?filters[mime][$eq]=text/plain');
    expect(text.body.map((f: { name: string }) => f.name)).toEqual(['notes.txt']);
    const sorted = await s.api('/api/upload/files?sort=name:asc&fields[0]=name');
    const names = sorted.body.map((f: { name: string }) => f.name);
    expect(names).toEqual([...names].sort());
    expect(Object.keys(sorted.body[0])).toEqual(['id', 'documentId', 'name', 'isUrlSigned']);
    expect((await s.api('/api/upload/files?pagination[page]=1&pagination[pageSize]=2')).body).toHaveLength(
      all.body.length,
    );
    const sliced = await s.api('/api/upload/files?start=1&limit=2');
    expect(sliced.body.map((f: { id: number }) => f.id)).toEqual(ids.slice(1, 3));

    const page = await s.api('/api/upload/files/page?page=2&pageSize=3');
    expect(page.status).toBe(200);
    expect(page.body.meta.pagination).toEqual({
      page: 2,
      pageSize: 3,
      pageCount: Math.ceil(ids.length / 3),
      total: ids.length,
    });
    expect(page.body.data.map((f: { id: number }) => f.id)).toEqual(ids.slice(3, 6));

    const one = await s.api(`/api/upload/files/${ids[0]}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(all.body[0]);
    for (const path of ['/api/upload/files/999999', `/api/upload/files/${all.body[0].documentId}`]) {
      const res = await s.api(path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        data: null,
        error: { status: 404, name: 'NotFoundError', message: 'file.notFound', details: {} },
      });
    }
    expect((await s.api('/api/upload/files?filters[secret][$eq]=1')).body.error.message).toBe('Invalid key secret');
    expect((await s.api('/api/upload/files?fields[0]=folderPath')).status).toBe(400);
    expect((await s.api('/api/upload/files?populate=related')).status).toBe(400);
    expect((await s.api('/api/upload/files?bogus=1')).status).toBe(400);
    expect((await s.api('/api/upload/files', { method: 'PUT' })).status).toBe(405);
  });

  it('answers "Files are empty" for a JSON body or a multipart body without files', async () => {
    const json = await s.api('/api/upload', { method: 'POST', body: { files: [] } });
    expect(json.status).toBe(400);
    expect(json.body.error).toEqual({ status: 400, name: 'ValidationError', message: 'Files are empty', details: {} });
    const empty = await upload(s, [], { foo: 'bar' });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toBe('Files are empty');
    expect((await s.api('/api/upload')).status).toBe(405);
  });

  it('updates file info with ?id= (multipart or JSON) and replaces the binary keeping id and URL', async () => {
    const [f] = (await upload(s, [{ name: 'orig.png', type: 'image/png', data: RED_PNG }])).body;
    const upd = await upload(
      s,
      [],
      { fileInfo: { name: 'renamed.png', alternativeText: 'updated alt', caption: 'updated caption' } },
      `?id=${f.id}`,
    );
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({
      id: f.id,
      documentId: f.documentId,
      name: 'renamed.png',
      alternativeText: 'updated alt',
      caption: 'updated caption',
      hash: f.hash,
      url: f.url,
      isUrlSigned: false,
    });
    expect(upd.body.updatedAt > f.updatedAt).toBe(true);
    const json = await s.api(`/api/upload?id=${f.id}`, { method: 'POST', body: { fileInfo: { caption: 'via json' } } });
    expect(json.status).toBe(200);
    expect(json.body).toMatchObject({ name: 'renamed.png', alternativeText: 'updated alt', caption: 'via json' });
    const onDisk = JSON.parse(readFileSync(join(s.contentDir, 'uploads', '_records', `${f.documentId}.json`), 'utf8'));
    expect(onDisk.caption).toBe('via json');

    const bigger = png(20, 10, [9, 9, 9]);
    const rep = await upload(s, [{ name: 'new.png', type: 'image/png', data: bigger }], {}, `?id=${f.id}`);
    expect(rep.status).toBe(200);
    expect(rep.body).toMatchObject({
      id: f.id,
      documentId: f.documentId,
      url: f.url,
      hash: f.hash,
      width: 20,
      height: 10,
      name: 'new.png',
      caption: 'via json',
    });
    expect(Buffer.from(await (await fetch(`${s.url}${f.url}`)).arrayBuffer()).equals(bigger)).toBe(true);

    const two = await upload(
      s,
      [
        { name: 'a.png', type: 'image/png', data: RED_PNG },
        { name: 'b.png', type: 'image/png', data: RED_PNG },
      ],
      {},
      `?id=${f.id}`,
    );
    expect(two.status).toBe(400);
    expect(two.body.error.message).toBe('Cannot replace a file with multiple ones');
    expect((await upload(s, [], { fileInfo: { name: 'x' } }, '?id=999999')).status).toBe(404);
    const unknownKey = await upload(s, [], { fileInfo: { foo: 1 } }, `?id=${f.id}`);
    expect(unknownKey.status).toBe(400);
    expect(unknownKey.body.error.message).toBe('fileInfo field has unspecified keys: foo');
  });

  it("uploads and links to an entry field (ref/refId/field), enforcing the field's allowedTypes", async () => {
    const article = await createArticle(s, { title: 'With cover' });
    const res = await upload(s, [{ name: 'cover.png', type: 'image/png', data: png(10, 10, [0, 200, 0]) }], {
      ref: 'api::article.article',
      refId: String(article.id),
      field: 'cover',
    });
    expect(res.status).toBe(201);
    const file = res.body[0];
    const read = await s.api(`/api/articles/${article.documentId}?populate=cover`);
    expect(read.status).toBe(200);
    const { isUrlSigned, ...expected } = file;
    void isUrlSigned;
    expect(read.body.data.cover).toEqual(expected);
    expect(Object.keys(read.body.data.cover)).toEqual(FILE_KEYS);

    const before = { bin: binaries(s), rec: records(s) };
    const text = await upload(s, [{ name: 'notes.txt', type: 'text/plain', data: Buffer.from('not an image') }], {
      ref: 'api::article.article',
      refId: String(article.id),
      field: 'cover',
    });
    expect(text.status).toBe(400);
    expect(text.body.error.name).toBe('ValidationError');
    for (const fields of [
      { ref: 'api::nope.nope', refId: String(article.id), field: 'cover' },
      { ref: 'api::article.article', refId: '999999', field: 'cover' },
      { ref: 'api::article.article', refId: String(article.id), field: 'title' },
      { ref: 'api::article.article', field: 'cover' },
    ]) {
      expect((await upload(s, [{ name: 'x.png', type: 'image/png', data: RED_PNG }], fields)).status).toBe(400);
    }
    expect({ bin: binaries(s), rec: records(s) }).toEqual(before);
  });

  const populatesTitle =
    'populates media single (object or null) and multiple (array), and deleting a file clears it everywhere';
  it(populatesTitle, async () => {
    const up = await upload(s, [
      { name: 'one.png', type: 'image/png', data: png(6, 6, [1, 1, 1]) },
      { name: 'two.png', type: 'image/png', data: png(6, 6, [2, 2, 2]) },
      { name: 'three.png', type: 'image/png', data: png(6, 6, [3, 3, 3]) },
    ]);
    const [one, two, three] = up.body;
    const created = await s.api('/api/articles?populate=*', {
      method: 'POST',
      body: {
        data: {
          title: 'Media',
          cover: one.id,
          blocks: [{ __component: 'shared.slider', files: [three.documentId, two.id] }],
        },
      },
    });
    expect(created.status).toBe(201);
    const did = created.body.data.documentId;
    const bare = await s.api(`/api/articles/${did}?populate=cover`);
    expect(bare.body.data.cover).toMatchObject({ id: one.id, documentId: one.documentId, url: one.url });
    expect(bare.body.data.cover.isUrlSigned).toBeUndefined();
    const deep = await s.api(`/api/articles/${did}?populate[blocks][populate]=*`);
    expect(deep.body.data.blocks[0].files.map((f: { id: number }) => f.id)).toEqual([three.id, two.id]);
    const none = await createArticle(s, { title: 'No cover' });
    expect((await s.api(`/api/articles/${none.documentId}?populate=cover`)).body.data.cover).toBeNull();

    const del = await s.api(`/api/upload/files/${one.id}`, { method: 'DELETE' });
    expect(del.status).toBe(200);
    expect(del.body).toEqual(one);
    expect((await s.api(`/api/articles/${did}?populate=cover`)).body.data.cover).toBeNull();
    const docFile = join(s.contentDir, 'documents', 'articles', `${did}.json`);
    expect(readFileSync(docFile, 'utf8')).not.toContain(one.documentId);
    expect(existsSync(join(s.contentDir, 'uploads', `${one.hash}${one.ext}`))).toBe(false);
    expect(existsSync(join(s.contentDir, 'uploads', '_records', `${one.documentId}.json`))).toBe(false);
    expect((await fetch(`${s.url}${one.url}`)).status).toBe(404);
    expect((await s.api(`/api/upload/files/${one.id}`)).status).toBe(404);
    const again = await s.api(`/api/upload/files/${one.id}`, { method: 'DELETE' });
    expect(again.status).toBe(404);
    expect(again.body.error.message).toBe('file.notFound');

    await s.api(`/api/upload/files/${three.id}`, { method: 'DELETE' });
    const after = await s.api(`/api/articles/${did}?populate[blocks][populate]=*`);
    expect(after.body.data.blocks[0].files.map((f: { id: number }) => f.id)).toEqual([two.id]);
  });

  it.skipIf(!hasSharp)('deletes formats with their file', async () => {
    const [f] = (await upload(s, [{ name: 'wide.png', type: 'image/png', data: png(600, 300) }])).body;
    const names = [
      `${f.hash}.png`,
      ...Object.values(f.formats as Record<string, { hash: string }>).map((x) => `${x.hash}.png`),
    ];
    expect(names.length).toBeGreaterThan(1);
    for (const n of names) expect(existsSync(join(s.contentDir, 'uploads', n))).toBe(true);
    expect((await s.api(`/api/upload/files/${f.id}`, { method: 'DELETE' })).status).toBe(200);
    for (const n of names) expect(existsSync(join(s.contentDir, 'uploads', n))).toBe(false);
  });

  it('loads the library back from disk with the same ids, and skips unsafe records', async () => {
    const list = (await s.api('/api/upload/files')).body;
    const evil = join(s.contentDir, 'uploads', '_records', 'evilrecord000000000000000.json');
    writeFileSync(
      evil,
      JSON.stringify({
        ...list[0],
        documentId: 'evilrecord000000000000000',
        id: 9999,
        hash: '../../folio',
        ext: '.json',
        url: '/uploads/../../folio.json',
      }),
    );
    const project = await openProject(s.dir);
    const lib = project.documents.media as LocalMediaLibrary;
    expect(lib).toBeInstanceOf(LocalMediaLibrary);
    expect(lib.list().map((r) => [r.id, r.documentId, r.hash])).toEqual(
      list.map((f: FileShape) => [f.id, f.documentId, f.hash]),
    );
    expect(project.report.problems.some((p) => p.file === evil)).toBe(true);
    expect(lib.servedFile('../../folio.json')).toBeUndefined();
  });
});

interface FileShape {
  id: number;
  documentId: string;
  hash: string;
}

describe('upload limits and permissions', () => {
  it('refuses a file over upload.sizeLimit with 413 FileTooBig and leaves nothing on disk', async () => {
    const s = await startTestServer({ config: { upload: { sizeLimit: 1000 } } });
    try {
      const blob = Buffer.alloc(5000, 7);
      const res = await upload(s, [{ name: 'big.bin', data: blob }]);
      expect(res.status).toBe(413);
      expect(res.body).toEqual({
        data: null,
        error: { status: 413, name: 'PayloadTooLargeError', message: 'FileTooBig', details: {} },
      });
      const second = await upload(s, [
        { name: 'ok.png', type: 'image/png', data: RED_PNG },
        { name: 'big.bin', data: blob },
      ]);
      expect(second.status).toBe(413);
      expect(filesUnder(join(s.contentDir, 'uploads'))).toEqual([]);
      // The server still answers on the same footing afterwards.
      const ok = await upload(s, [{ name: 'ok.png', type: 'image/png', data: RED_PNG }]);
      expect(ok.status).toBe(201);
      expect(records(s)).toHaveLength(1);
    } finally {
      await s.stop();
    }
  });

  it('refuses bad upload settings in folio.json clearly', async () => {
    await expect(startTestServer({ config: { upload: { sizeLimit: 'big' } } })).rejects.toThrow(/upload\.sizeLimit/);
  });

  it('checks plugin::upload.content-api.* actions (403 Forbidden) and update on the linked type', async () => {
    const denied = new Set<string>();
    const access: AccessPolicy = {
      async authenticate() {
        return { kind: 'public' };
      },
      can(_p, action) {
        return !denied.has(action);
      },
    };
    const s = await startTestServer({ app: { access } });
    try {
      const [f] = (await upload(s, [{ name: 'a.png', type: 'image/png', data: RED_PNG }])).body;
      const forbidden = {
        data: null,
        error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} },
      };
      const checks: Array<[string, () => Promise<{ status: number; body: unknown }>]> = [
        ['upload', () => upload(s, [{ name: 'b.png', type: 'image/png', data: RED_PNG }])],
        ['find', () => s.api('/api/upload/files')],
        ['findPage', () => s.api('/api/upload/files/page')],
        ['findOne', () => s.api(`/api/upload/files/${f.id}`)],
        ['destroy', () => s.api(`/api/upload/files/${f.id}`, { method: 'DELETE' })],
      ];
      for (const [action, call] of checks) {
        denied.clear();
        denied.add(`plugin::upload.content-api.${action}`);
        const res = await call();
        expect([action, res.status, res.body]).toEqual([action, 403, forbidden]);
      }
      denied.clear();
      const article = await createArticle(s, { title: 'Locked' });
      denied.add('api::article.article.update');
      const link = await upload(s, [{ name: 'c.png', type: 'image/png', data: RED_PNG }], {
        ref: 'api::article.article',
        refId: String(article.id),
        field: 'cover',
      });
      expect(link.status).toBe(403);
      expect(records(s)).toHaveLength(1);
    } finally {
      await s.stop();
    }
  });

  it('leaves nothing behind when the client aborts mid-upload', async () => {
    const s = await startTestServer();
    try {
      const boundary = 'folioboundary';
      const head =
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="slow.bin"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n';
      const { request } = await import('node:http');
      const uploads = join(s.contentDir, 'uploads');
      // The server's end of the connection: closed once the server has let go of the request.
      const released = new Promise<void>((resolve) =>
        s.server.once('connection', (socket) => socket.once('close', () => resolve())),
      );
      const req = request(`${s.url}/api/upload`, {
        method: 'POST',
        headers: {
          ...s.auth,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': '100000',
        },
      });
      req.on('error', () => undefined);
      req.write(head);
      req.write(Buffer.alloc(20000, 1));
      // Aborted once the server is writing the file, wherever it has got to.
      await eventually(() => filesUnder(uploads).some((f) => f.includes(TEMP_MARK)), 'the upload spooled');
      req.destroy();
      await released;
      await eventually(() => filesUnder(uploads).length === 0, 'the temp file removed');
      expect((await s.api('/api/upload/files')).body).toEqual([]);
    } finally {
      await s.stop();
    }
  });
});
