import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RED_PNG, type UploadPart, uploadOne } from './helpers/media.js';
import { startTestServer, type TestServer } from './helpers/project.js';

/**
 * XML that is neither SVG nor XHTML is stored as plain text in every encoding a browser or an XML parser reads it
 * in (UTF-8, UTF-16 of either byte order, with or without a byte-order mark), never under the name's `.xml`; a
 * name whose extension is the detected type's own, in any case, keeps it.
 */
describe('an upload of XML, and of a name in capitals', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s.stop();
  });

  const upload = async (file: UploadPart) => {
    const { ext, mime } = await uploadOne(s, file);
    return { ext, mime };
  };

  it('stores XML as plain text in UTF-8 and in UTF-16, with or without a byte-order mark', async () => {
    const xml = '<?xml version="1.0"?><note><to>Tove</to></note>';
    const le = Buffer.from(xml, 'utf16le');
    const be = Buffer.from(xml, 'utf16le').swap16();
    const encodings = {
      'UTF-8': Buffer.from(xml),
      'UTF-16LE with a mark': Buffer.concat([Buffer.from([0xff, 0xfe]), le]),
      'UTF-16BE with a mark': Buffer.concat([Buffer.from([0xfe, 0xff]), be]),
      'UTF-16LE': le,
      'UTF-16BE': be,
    };
    const stored: Record<string, { ext: string; mime: string }> = {};
    for (const [name, data] of Object.entries(encodings))
      stored[name] = await upload({ name: 'note.xml', type: 'application/xml', data });
    expect(stored).toEqual(
      Object.fromEntries(Object.keys(encodings).map((name) => [name, { ext: '.txt', mime: 'text/plain' }])),
    );
  });

  it('keeps the extension of a name in capitals when it is the type’s own', async () => {
    expect(await upload({ name: 'PHOTO.PNG', type: 'image/png', data: RED_PNG })).toMatchObject({
      ext: '.PNG',
      mime: 'image/png',
    });
  });
});
