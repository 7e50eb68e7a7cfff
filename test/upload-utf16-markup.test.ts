import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { startTestServer, type TestServer } from './helpers/project.js';
import { form } from './helpers/media.js';
import { CHROMIUM, studioBrowser } from './helpers/studio.js';

/**
 * The upload XML refusal (issue 31, item 8), for markup in UTF-16: markup a browser runs is refused by its bytes, and
 * content Folio cannot identify never keeps an extension a web server would render. XHTML written in UTF-16
 * big-endian (a byte-order mark, then the markup) is neither UTF-8 text nor a signature `file-type` knows without
 * an XML prolog, so it is stored as unidentified bytes, and `.xht` (XHTML in Apache's default MIME table) is not
 * on the list of extensions such bytes lose. A static host serving `uploads/` (as the README suggests) serves it
 * as `application/xhtml+xml`, and the browser runs its script.
 */
describe('XHTML in UTF-16 as an upload', () => {
  let s: TestServer;
  let host: Server | undefined;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s.stop();
    await new Promise((r) => (host ? host.close(r) : r(undefined)));
  });

  const page = '<html xmlns="http://www.w3.org/1999/xhtml"><body><script>window.ran = true</script></body></html>';
  const utf16be = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(page, 'utf16le').swap16()]);

  const upload = async (data = utf16be, name = 'notes.xht') => {
    const res = await fetch(`${s.url}/api/upload`, {
      method: 'POST',
      body: form([{ name, type: 'application/octet-stream', data }]),
      headers: s.auth,
    });
    const body = (await res.json()) as
      Array<{ ext: string; url: string; mime: string }> | { error: { message: string } };
    return {
      status: res.status,
      stored: Array.isArray(body) ? body[0] : undefined,
      message: Array.isArray(body) ? undefined : body.error.message,
    };
  };

  it('never stores UTF-16 XHTML under an extension a static host serves as XHTML', async () => {
    const { status, message } = await upload();
    expect([status, message]).toEqual([400, "File type 'text/html' is not allowed"]);
  });

  it('refuses the markup in UTF-16 little-endian, and without a byte-order mark, as in UTF-8', async () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(page, 'utf16le')]);
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>1</script></svg>', 'utf16le');
    const bare = Buffer.from(page, 'utf16le').swap16();
    const refused = [];
    for (const data of [le, svg, bare]) refused.push((await upload(data, 'notes.bin')).message);
    expect(refused).toEqual([
      "File type 'text/html' is not allowed",
      "File type 'image/svg+xml' is not allowed",
      "File type 'text/html' is not allowed",
    ]);
  });

  it('takes plain text in UTF-16, with no markup in it, as the bytes it is not told apart from', async () => {
    const kept = [];
    for (const bom of [[0xfe, 0xff], [0xff, 0xfe], []]) {
      const text = Buffer.from('plain words, <b or a < c', 'utf16le');
      const data = Buffer.concat([Buffer.from(bom), bom[0] === 0xfe ? text.swap16() : text]);
      const { status, stored } = await upload(data, 'notes.txt');
      kept.push([status, stored?.ext, stored?.mime]);
    }
    // file-type takes a little-endian byte-order mark for the start of an MPEG audio frame.
    expect(kept).toEqual([
      [201, '.txt', 'application/octet-stream'],
      [201, '.mp1', 'audio/mpeg'],
      [201, '.txt', 'application/octet-stream'],
    ]);
  });

  it('keeps no extension a static host serves as a page for bytes it cannot identify', async () => {
    const bytes = Buffer.from([0x00, 0x01, 0x02, 0xfe, 0x80, 0x81, 0x82, 0x83]);
    const kept: Record<string, string | undefined> = {};
    for (const name of ['a.xht', 'a.rdf', 'a.mathml', 'a.xsl', 'a.stl', 'a.dat'])
      kept[name] = (await upload(bytes, name)).stored?.ext;
    expect(kept).toEqual({
      'a.xht': '.bin',
      'a.rdf': '.bin',
      'a.mathml': '.bin',
      'a.xsl': '.bin',
      'a.stl': '.stl',
      'a.dat': '.dat',
    });
  });

  it.skipIf(!CHROMIUM)('runs no script in a browser from uploads/ served by a static host', async () => {
    const { stored } = await upload();
    const file = stored && join(s.contentDir, stored.url.replace(/^\//, ''));
    if (!file || !existsSync(file)) return;
    // A static host with Apache's default table: .xht is application/xhtml+xml.
    const types: Record<string, string> = { '.xht': 'application/xhtml+xml', '.bin': 'application/octet-stream' };
    host = createServer((_req, res) => {
      res.setHeader('content-type', types[/\.\w+$/.exec(file)?.[0] ?? ''] ?? 'application/octet-stream');
      res.end(readFileSync(file));
    });
    await new Promise<void>((r) => host!.listen(0, '127.0.0.1', r));
    const browser = await studioBrowser();
    const context = await browser.newContext();
    try {
      const tab = await context.newPage();
      await tab.goto(`http://127.0.0.1:${(host.address() as AddressInfo).port}/uploads/x`).catch(() => undefined);
      expect(await tab.evaluate(() => (window as { ran?: boolean }).ran === true)).toBe(false);
    } finally {
      await context.close();
    }
  });
});
