import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { startTestServer, type TestServer } from './helpers/project.js';
import { ELF, SVG, filesUnder, form, type UploadPart } from './helpers/media.js';

/**
 * What an upload may not put on the server's origin, as an attacker would try it: content a browser renders or a
 * web server runs is refused by its bytes, whatever name and type the client gives (the generator's denied types),
 * and content Folio cannot identify never keeps an extension that a web server would run or render.
 */
describe('uploads that would run or render on the server', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s.stop();
  });

  const upload = async (files: UploadPart[]) => {
    const res = await fetch(`${s.url}/api/upload`, { method: 'POST', body: form(files), headers: s.auth });
    return { status: res.status, body: await res.json() };
  };
  const stored = () => filesUnder(join(s.contentDir, 'uploads'));

  const bytes = (...parts: Array<string | number[] | Buffer>) =>
    Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));
  /** A zip holding one stored (uncompressed) entry: what tells a Java or an Android archive apart. */
  const zip = (name: string) => {
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt32LE(1, 18);
    header.writeUInt32LE(1, 22);
    header.writeUInt16LE(name.length, 26);
    return bytes(header, name, 'x');
  };
  const refused: Array<[what: string, name: string, data: Buffer, mime: string]> = [
    ['a PHP script', 'shell.php', bytes('<?php system($_GET["c"]); ?>\n'), 'application/x-httpd-php'],
    ['a PHP script named as text', 'notes.txt', bytes('<?php echo 1; ?>'), 'application/x-httpd-php'],
    ['a PHP script named as an image', 'photo.jpg', bytes('  <?PHP phpinfo();'), 'application/x-httpd-php'],
    ['a shell script', 'run.sh', bytes('#!/bin/sh\nrm -rf /\n'), 'text/x-shellscript'],
    ['a web page', 'page.png', bytes('<!DOCTYPE html><html><script>alert(1)</script></html>'), 'text/html'],
    ['a bare script tag', 'x.txt', bytes('<script>alert(1)</script>'), 'text/html'],
    [
      'an XHTML page',
      'x.xml',
      bytes('<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"/>'),
      'application/xhtml+xml',
    ],
    ['an SVG image', 'logo.png', SVG, 'image/svg+xml'],
    ['an SVG behind a doctype', 'logo.svg', bytes('<!DOCTYPE svg><svg/>'), 'image/svg+xml'],
    ['an ELF executable', 'photo.png', ELF, 'application/x-elf'],
    ['a Windows executable', 'setup.exe', bytes('MZ', Buffer.alloc(300)), 'application/x-msdownload'],
    ['a WebAssembly module', 'x.bin', bytes([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]), 'application/wasm'],
    ['a Mach-O executable', 'app', bytes([0xcf, 0xfa, 0xed, 0xfe], Buffer.alloc(60)), 'application/x-mach-binary'],
    [
      'a Flash movie',
      'movie.swf',
      bytes('FWS', [10, 0x20, 0, 0, 0], Buffer.alloc(40)),
      'application/x-shockwave-flash',
    ],
    ['an Apple disk image', 'x.dmg', bytes([0x78, 0x01], Buffer.alloc(64)), 'application/x-apple-diskimage'],
    ['an RPM package', 'x.rpm', bytes([0xed, 0xab, 0xee, 0xdb], Buffer.alloc(96)), 'application/x-rpm'],
    [
      'a Java class',
      'X.class',
      bytes([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 0x34], Buffer.alloc(64)),
      'application/java-vm',
    ],
    ['a Debian package', 'x.deb', bytes('!<arch>\ndebian-binary   ', Buffer.alloc(64)), 'application/x-deb'],
    [
      'a Windows shortcut',
      'x.lnk',
      bytes([0x4c, 0, 0, 0, 1, 0x14, 2, 0, 0, 0, 0, 0, 0xc0, 0, 0, 0, 0, 0, 0, 0x46], Buffer.alloc(64)),
      'application/x.ms.shortcut',
    ],
    ['a Java archive', 'x.zip', zip('META-INF/MANIFEST.MF'), 'application/java-archive'],
    ['an Android package', 'x.zip', zip('classes.dex'), 'application/vnd.android.package-archive'],
    [
      'an SVG with a prefix',
      'x.xml',
      bytes('<?xml version="1.0"?><s:svg xmlns:s="http://www.w3.org/2000/svg"/>'),
      'image/svg+xml',
    ],
    [
      'an XHTML page with a prefix',
      'x.txt',
      bytes('<h:html xmlns:h="http://www.w3.org/1999/xhtml">'),
      'application/xhtml+xml',
    ],
    [
      'an XHTML page behind a doctype',
      'x.txt',
      bytes('<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0//EN">\n<html>'),
      'text/html',
    ],
    ['a script after a byte-order mark', 'x.txt', bytes([0xef, 0xbb, 0xbf], '\n #!/bin/sh\n'), 'text/x-shellscript'],
  ];

  it.each(refused)('refuses %s (%s) by its bytes, and stores nothing', async (_what, name, data, mime) => {
    const before = stored();
    const res = await upload([{ name, type: 'application/octet-stream', data }]);
    expect([res.status, res.body.error?.message]).toEqual([400, `File type '${mime}' is not allowed`]);
    expect(stored()).toEqual(before);
  });

  /** What a browser takes for a web page (the WHATWG sniffing signatures), each closed as a tag may be. */
  const PAGE_STARTS = [
    '<!DOCTYPE html>', '<html>', '<HEAD>', '<script ', '<iframe/', '<h1\t', '<div\n', '<font\r', '<table>', '<a>',
    '<style>', '<title>', '<b>', '<body>', '<br/>', '<p>', '<!-->', '<p',
  ]; // prettier-ignore

  it.each(PAGE_STARTS)('refuses text starting %j as a web page', async (start) => {
    const res = await upload([{ name: 'notes.txt', type: 'text/plain', data: bytes(`  ${start}`) }]);
    expect([res.status, res.body.error?.message]).toEqual([400, "File type 'text/html' is not allowed"]);
  });

  it.each(['<bx>', '<a-b>', '<p1>', '<!-', 'a <b>', '<?xml version="1.0"?><rss/>', '<!DOCTYPE note><note/>'])(
    'keeps text starting %j, which no browser takes for a page, as text',
    async (start) => {
      const res = await upload([{ name: 'notes.txt', type: 'text/plain', data: bytes(start) }]);
      expect([res.status, res.body[0]?.mime]).toEqual([201, 'text/plain']);
    },
  );

  /** Extensions a web server runs or renders, never kept on content Folio could not identify. */
  const RISKY = [
    'html', 'htm', 'xhtml', 'shtml', 'svg', 'svgz', 'xml', 'xsl', 'xslt', 'js', 'mjs', 'cjs', 'jsx', 'ts', 'php',
    'phtml', 'php3', 'php4', 'php5', 'phar', 'asp', 'aspx', 'jsp', 'cgi', 'pl', 'py', 'rb', 'sh', 'bash', 'zsh',
    'csh', 'bat', 'cmd', 'com', 'exe', 'dll', 'msi', 'scr', 'ps1', 'psm1', 'vbs', 'vbe', 'wsf', 'hta', 'lnk', 'jar',
    'swf', 'htaccess', 'appcache', 'mht', 'mhtml', 'PHP', 'Html',
  ]; // prettier-ignore

  it.each(RISKY)('stores unidentified bytes named x.%s as .bin', async (ext) => {
    // Bytes no signature matches, and not text: application/octet-stream.
    const data = Buffer.concat([Buffer.from([0x00, 0xff, 0x13, 0x37]), randomBytes(64)]);
    const res = await upload([{ name: `x.${ext}`, type: 'application/octet-stream', data }]);
    expect(res.status).toBe(201);
    expect(res.body[0]).toMatchObject({ name: `x.${ext}`, ext: '.bin', mime: 'application/octet-stream' });
    expect(res.body[0].url).toMatch(/^\/uploads\/x_[0-9a-f]{10}\.bin$/);
  });

  it('keeps a harmless extension on unidentified bytes', async () => {
    const data = Buffer.concat([Buffer.from([0x00, 0xff, 0x13, 0x37]), randomBytes(64)]);
    const res = await upload([{ name: 'recording.dat', type: 'application/octet-stream', data }]);
    expect(res.status).toBe(201);
    expect(res.body[0]).toMatchObject({ ext: '.dat', mime: 'application/octet-stream' });
  });
});
