import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLUE_JPEG, PDF, RED_PNG, type UploadPart, uploadOne } from './helpers/media.js';
import { startTestServer, type TestServer } from './helpers/project.js';

const bytes = (...parts: Array<string | number[] | Buffer>) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

/** A 1x1 grey TIFF. */
const TIFF = Buffer.from(
  'SUkqAAgAAAAIAAABAwABAAAAAQAAAAEBAwABAAAAAQAAAAIBAwABAAAACAAAAAMBAwABAAAAAQAAAAYBAwABAAAAAQAAABEBBAABAAAAbgAA' +
    'ABYBAwABAAAAAQAAABcBBAABAAAAAQAAAAAAAACA',
  'base64',
);
/** Other media by their first bytes, as `file-type` tells them (just enough of each for it). */
const MP4 = bytes([0, 0, 0, 0x18], 'ftypisom', [0, 0, 2, 0], 'isomiso2', Buffer.alloc(32));
const MOV = bytes([0, 0, 0, 0x14], 'ftypqt  ', [0, 0, 2, 0], 'qt  ', Buffer.alloc(32));
const MPEG = bytes([0, 0, 1, 0xba, 0x44], Buffer.alloc(64));
const MP3 = bytes([0xff, 0xfb, 0x90, 0x64], Buffer.alloc(400));
const OGG = bytes('OggS', Buffer.alloc(24), '\x01vorbis', Buffer.alloc(64));

/**
 * What an accepted upload is stored as, as its uploader sees it in the answer and a browser in the served file: the
 * extension and MIME type come from the content; the name's own extension is kept only when it says the same (an
 * alias of the type, a harmless text extension), and text is served as UTF-8.
 */
describe('the extension and type an upload is stored with', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s.stop();
  });

  const upload = (file: UploadPart) => uploadOne(s, file);

  /** Every harmless text extension, with the type it is served as. */
  const TEXT: Array<[ext: string, mime: string]> = [
    ['txt', 'text/plain'],
    ['text', 'text/plain'],
    ['log', 'text/plain'],
    ['ini', 'text/plain'],
    ['cfg', 'text/plain'],
    ['conf', 'text/plain'],
    ['md', 'text/markdown'],
    ['markdown', 'text/markdown'],
    ['csv', 'text/csv'],
    ['tsv', 'text/tab-separated-values'],
    ['json', 'application/json'],
    ['yml', 'text/yaml'],
    ['yaml', 'text/yaml'],
    ['toml', 'text/plain'],
    ['vtt', 'text/vtt'],
    ['srt', 'text/plain'],
    ['rtf', 'text/rtf'],
    ['tex', 'text/plain'],
    ['po', 'text/plain'],
    ['properties', 'text/plain'],
  ];

  it.each(TEXT)('keeps a text file named notes.%s, as %s', async (ext, mime) => {
    const stored = await upload({ name: `notes.${ext}`, type: 'text/plain', data: Buffer.from('a = 1\n') });
    expect([stored.ext, stored.mime]).toEqual([`.${ext}`, mime]);
  });

  it.each([
    ['run.bat', 'text'],
    ['index.js', 'text'],
    ['x.constructor', 'text'],
    ['README', 'text'],
    ['data.xml', '<?xml version="1.0"?><data><item>1</item></data>'],
    ['feed.rss', '<?xml version="1.0"?>\n<!-- feed -->\n<?pi x?>\n<!DOCTYPE rss>\n<rss><html/></rss>'],
  ])('stores text named %s as .txt', async (name, text) => {
    const stored = await upload({ name, type: 'text/plain', data: Buffer.from(text) });
    expect([stored.ext, stored.mime]).toEqual(['.txt', 'text/plain']);
  });

  /** 8 KiB of text whose last character is cut by the end of what is read of it. */
  const cutAt8k = (char: string) => Buffer.concat([Buffer.alloc(8191, 'a'), Buffer.from(char), Buffer.from('z')]);
  it.each([
    ['tabs, breaks, form feeds and escapes', 'text/plain', bytes('a\tb\r\nc\f\v\x1b[0m')],
    ['an empty file', 'text/plain', Buffer.alloc(0)],
    ['8 KiB ending in a cut two-byte character', 'text/plain', cutAt8k('é')],
    ['8 KiB ending in a cut three-byte character', 'text/plain', cutAt8k('€')],
    ['8 KiB ending in a cut four-byte character', 'text/plain', cutAt8k('😀')],
    ['8 KiB of text then a NUL', 'text/plain', Buffer.concat([Buffer.alloc(8192, 'a'), Buffer.alloc(1)])],
    ['a NUL', 'application/octet-stream', bytes('ab\0cd')],
    ['a control character', 'application/octet-stream', bytes('ab\x01cd')],
    ['a DEL', 'application/octet-stream', bytes('ab\x7fcd')],
    ['a unit separator', 'application/octet-stream', bytes('ab\x1fcd')],
    ['invalid UTF-8', 'application/octet-stream', bytes('ab', [0xc3, 0x28], 'cd')],
    [
      'a stray continuation byte at 8 KiB',
      'application/octet-stream',
      Buffer.concat([Buffer.alloc(8191, 'a'), bytes([0xa9])]),
    ],
  ])('stores %s named data.txt as %s', async (_what, mime, data) => {
    const stored = await upload({ name: 'data.txt', type: 'text/plain', data });
    expect([stored.ext, stored.mime]).toEqual(['.txt', mime]);
  });

  it.each([
    ['recording.dat', '.dat'],
    ['recording.DAT', '.DAT'],
    ['recording', '.bin'],
    ['recording.', '.bin'],
    ['recording.abcdefghijklmnopq', '.bin'],
    ['recording.abcdefghijklmnop', '.abcdefghijklmnop'],
    ['recording.tar.gz!', '.bin'],
  ])('stores unidentified bytes named %s as %s', async (name, ext) => {
    const stored = await upload({ name, data: bytes([0x00, 0xff, 0x13, 0x37], Buffer.alloc(64, 7)) });
    expect([stored.ext, stored.mime]).toEqual([ext, 'application/octet-stream']);
  });

  it.each([
    ['photo.jpeg', BLUE_JPEG, '.jpeg', 'image/jpeg'],
    ['photo.JPE', BLUE_JPEG, '.JPE', 'image/jpeg'],
    ['photo.jfif', BLUE_JPEG, '.jfif', 'image/jpeg'],
    ['photo.jif', BLUE_JPEG, '.jif', 'image/jpeg'],
    ['photo.jpg', BLUE_JPEG, '.jpg', 'image/jpeg'],
    ['photo.png', BLUE_JPEG, '.jpg', 'image/jpeg'],
    ['photo', BLUE_JPEG, '.jpg', 'image/jpeg'],
    ['scan.tiff', TIFF, '.tiff', 'image/tiff'],
    ['clip.m4v', MP4, '.m4v', 'video/mp4'],
    ['clip.mov', MP4, '.mp4', 'video/mp4'],
    ['clip.qt', MOV, '.qt', 'video/quicktime'],
    ['clip.mpeg', MPEG, '.mpeg', 'video/MP2P'],
    ['song.mpga', MP3, '.mpga', 'audio/mpeg'],
    ['song.oga', OGG, '.oga', 'audio/ogg'],
    ['song.ogv', OGG, '.ogv', 'audio/ogg'],
    ['song.ogx', OGG, '.ogx', 'audio/ogg'],
    ['song.mp3', OGG, '.ogg', 'audio/ogg'],
    ['paper.pdf', PDF, '.pdf', 'application/pdf'],
    ['dot.gif', RED_PNG, '.png', 'image/png'],
  ])('stores %s by its content', async (name, data, ext, mime) => {
    const stored = await upload({ name, type: 'application/octet-stream', data });
    expect([stored.ext, stored.mime]).toEqual([ext, mime]);
  });

  it.each([
    ['notes.md', 'text/markdown; charset=utf-8'],
    ['data.json', 'application/json; charset=utf-8'],
    ['notes.txt', 'text/plain; charset=utf-8'],
  ])('serves text stored as %s in UTF-8', async (name, header) => {
    const stored = await upload({ name, type: 'text/plain', data: Buffer.from('{"é": 1}') });
    const res = await fetch(`${s.url}${stored.url}`);
    expect([res.status, res.headers.get('content-type')]).toEqual([200, header]);
  });

  it.each([
    ['paper.pdf', PDF, 'application/pdf'],
    ['photo.jpg', BLUE_JPEG, 'image/jpeg'],
  ])('serves %s as its type alone', async (name, data, header) => {
    const stored = await upload({ name, type: 'application/octet-stream', data });
    const res = await fetch(`${s.url}${stored.url}`);
    expect([res.status, res.headers.get('content-type')]).toEqual([200, header]);
  });
});
