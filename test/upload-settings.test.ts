import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openProject } from '../src/project.js';
import { FIXTURE_CONFIG, makeProject, startTestServer, type TestServer } from './helpers/project.js';
import { BLUE_JPEG, RED_PNG, form, png, type UploadPart } from './helpers/media.js';

const PAGE = Buffer.from('<!DOCTYPE html><html><body>hi</body></html>');
const TEXT = Buffer.from('plain words\n');

/**
 * The `upload` section of folio.json as a project owner uses it: limits on size and count, the allow and deny
 * lists of types (globs, any case, a lifted allow list), the image formats made, and the message `folio serve`
 * stops with when a setting is wrong.
 */
describe('upload settings', () => {
  const servers: TestServer[] = [];
  const serve = async (upload: unknown) => {
    const s = await startTestServer({ config: { upload } });
    servers.push(s);
    return async (files: UploadPart[]) => {
      const res = await fetch(`${s.url}/api/upload`, { method: 'POST', body: form(files), headers: s.auth });
      const body = await res.json();
      return { status: res.status, body, message: body.error?.message as string | undefined };
    };
  };
  afterAll(async () => {
    for (const s of servers) await s.stop();
  });
  /** Opens a project whose folio.json has this `upload` section, as written. */
  const openWith = async (section: string) => {
    const project = makeProject();
    const text = `{ "locales": ${JSON.stringify(FIXTURE_CONFIG.locales)}, "defaultLocale": "en", "upload": ${section}}`;
    writeFileSync(join(project.contentDir, 'folio.json'), text);
    try {
      await openProject(project.dir);
      return 'opened';
    } finally {
      project.cleanup();
    }
  };

  describe('limits and lists', () => {
    let small: Awaited<ReturnType<typeof serve>>;
    let imagesOnly: Awaited<ReturnType<typeof serve>>;
    let anyType: Awaited<ReturnType<typeof serve>>;
    let noType: Awaited<ReturnType<typeof serve>>;
    beforeAll(async () => {
      small = await serve({ sizeLimit: 12, maxFiles: 1 });
      imagesOnly = await serve({ security: { allowedTypes: ['Image/*'], deniedTypes: ['IMAGE/PNG'] } });
      anyType = await serve({ security: { allowedTypes: null, deniedTypes: [] } });
      noType = await serve({ security: { allowedTypes: [] } });
    });

    it('takes a file of the size limit and refuses one byte more', async () => {
      expect((await small([{ name: 'a.txt', data: Buffer.alloc(12, 'a') }])).status).toBe(201);
      const over = await small([{ name: 'a.txt', data: Buffer.alloc(13, 'a') }]);
      expect([over.status, over.body.error?.name]).toEqual([413, 'PayloadTooLargeError']);
    });

    it('refuses more files than maxFiles in one request', async () => {
      const two = await small([
        { name: 'a.txt', data: TEXT },
        { name: 'b.txt', data: TEXT },
      ]);
      expect(two.status).toBe(413);
    });

    it('matches the allow and deny lists in any case, globs included', async () => {
      expect((await imagesOnly([{ name: 'a.jpg', data: BLUE_JPEG }])).status).toBe(201);
      expect((await imagesOnly([{ name: 'a.png', data: RED_PNG }])).message).toBe(
        "File type 'image/png' is not allowed",
      );
      expect((await imagesOnly([{ name: 'a.txt', data: TEXT }])).message).toBe("File type 'text/plain' is not allowed");
    });

    it('takes any type once the allow list is lifted and nothing is denied', async () => {
      const page = await anyType([{ name: 'page.htm', data: PAGE }]);
      expect([page.status, page.body[0]?.ext, page.body[0]?.mime]).toEqual([201, '.htm', 'text/html']);
      const renamed = await anyType([{ name: 'page.txt', data: PAGE }]);
      expect([renamed.status, renamed.body[0]?.ext]).toEqual([201, '.html']);
    });

    it.each([
      ['<!DOCTYPE svg>\n<svg/>', '.svg', 'image/svg+xml'],
      ['<!DOCTYPE  html>', '.html', 'text/html'],
      ['<?xml version="1.0"?><html/>', '.xhtml', 'application/xhtml+xml'],
      ['<x:html xmlns:x="http://www.w3.org/1999/xhtml"/>', '.xhtml', 'application/xhtml+xml'],
      ['<!-- a\nb --><svg/>', '.svg', 'image/svg+xml'],
      ['<!DOCTYPE note [\n<!ENTITY a "b">\n]>\n<svg/>', '.svg', 'image/svg+xml'],
      ['<?php echo 1;', '.php', 'application/x-httpd-php'],
      ['#!/bin/sh\n', '.sh', 'text/x-shellscript'],
    ])('stores %j named notes.txt under its own extension once every type is taken', async (text, ext, mime) => {
      const res = await anyType([{ name: 'notes.txt', data: Buffer.from(text) }]);
      expect([res.status, res.body[0]?.ext, res.body[0]?.mime]).toEqual([201, ext, mime]);
    });

    it('refuses every type when the allow list is empty', async () => {
      expect((await noType([{ name: 'a.txt', data: TEXT }])).message).toBe("File type 'text/plain' is not allowed");
    });
  });

  it.each([
    [{ breakpoints: { wide: 300 } }, ['thumbnail', 'wide']],
    [{ breakpoints: { wide: 300 }, responsiveDimensions: false }, ['thumbnail']],
    [{}, ['small', 'thumbnail']],
  ])('makes the image formats of %j', async (upload, formats) => {
    const send = await serve(upload);
    const res = await send([{ name: 'wide.png', data: png(600, 100) }]);
    expect([res.status, Object.keys(res.body[0].formats ?? {}).sort()]).toEqual([201, formats]);
  });

  it('takes fonts and 3D models by default', async () => {
    const send = await serve({});
    const font = Buffer.concat([Buffer.from('wOF2'), Buffer.from([0, 1, 0, 0]), Buffer.alloc(64)]);
    const model = Buffer.concat([Buffer.from('glTF'), Buffer.from([2, 0, 0, 0]), Buffer.alloc(64)]);
    const res = await send([
      { name: 'title.woff2', data: font },
      { name: 'chair.glb', data: model },
    ]);
    expect([res.status, res.body.map?.((f: { ext: string; mime: string }) => `${f.ext} ${f.mime}`)]).toEqual([
      201,
      ['.woff2 font/woff2', '.glb model/gltf-binary'],
    ]);
  });

  it('takes uploads under the default rules in a project without folio.json', async () => {
    const project = makeProject();
    rmSync(join(project.contentDir, 'folio.json'));
    const s = await startTestServer({ dir: project.dir });
    servers.push(s);
    const send = (files: UploadPart[]) =>
      fetch(`${s.url}/api/upload`, { method: 'POST', body: form(files), headers: s.auth });
    const [image, page] = [await send([{ name: 'a.png', data: RED_PNG }]), await send([{ name: 'a.htm', data: PAGE }])];
    expect([image.status, page.status, (await page.json()).error.message]).toEqual([
      201,
      400,
      "File type 'text/html' is not allowed",
    ]);
  });

  it.each([
    ['null', '"upload" must be an object'],
    ['5', '"upload" must be an object'],
    ['[]', '"upload" must be an object'],
    ['{"size": 1}', '"upload.size" is not an upload setting'],
    ['{"sizeLimit": 0}', '"upload.sizeLimit" must be an integer >= 1'],
    ['{"sizeLimit": 1.5}', '"upload.sizeLimit" must be an integer >= 1'],
    ['{"sizeLimit": "1"}', '"upload.sizeLimit" must be an integer >= 1'],
    ['{"maxFiles": 0}', '"upload.maxFiles" must be an integer >= 1'],
    ['{"security": []}', '"upload.security" must be an object'],
    ['{"security": {"allowed": []}}', '"upload.security.allowed" is not a security setting'],
    ['{"security": {"deniedTypes": null}}', '"upload.security.deniedTypes" must be an array of MIME types or globs'],
    ['{"security": {"allowedTypes": "image/*"}}', '"upload.security.allowedTypes" must be an array of MIME types or'],
    ['{"security": {"allowedTypes": ["image"]}}', '"upload.security.allowedTypes" must be an array of MIME types or'],
    ['{"security": {"allowedTypes": [" image/png"]}}', '"upload.security.allowedTypes" must be an array of MIME types'],
    ['{"security": {"deniedTypes": ["image/png "]}}', '"upload.security.deniedTypes" must be an array of MIME types'],
    ['{"security": {"deniedTypes": [1]}}', '"upload.security.deniedTypes" must be an array of MIME types or'],
    ['{"security": {"deniedTypes": [["image/png"]]}}', '"upload.security.deniedTypes" must be an array of MIME'],
    ['{"breakpoints": []}', '"upload.breakpoints" must be an object of name -> pixels'],
    ['{"breakpoints": {"thumbnail": 100}}', '"upload.breakpoints.thumbnail" is not a usable format name'],
    ['{"breakpoints": {"x-large": 100}}', '"upload.breakpoints.x-large" is not a usable format name'],
    ['{"breakpoints": {"2x": 100}}', '"upload.breakpoints.2x" is not a usable format name'],
    ['{"breakpoints": {"large": 0}}', '"upload.breakpoints.large" must be an integer from 1 to 10000'],
    ['{"breakpoints": {"large": 10001}}', '"upload.breakpoints.large" must be an integer from 1 to 10000'],
    ['{"breakpoints": {"large": 1.5}}', '"upload.breakpoints.large" must be an integer from 1 to 10000'],
    ['{"breakpoints": {"large": "1"}}', '"upload.breakpoints.large" must be an integer from 1 to 10000'],
    ['{"responsiveDimensions": "yes"}', '"upload.responsiveDimensions" must be a boolean'],
  ])('refuses to open a project whose upload section is %s', async (section, message) => {
    await expect(openWith(section)).rejects.toThrow(message);
  });

  it.each([
    ['{"sizeLimit": 1, "maxFiles": 1, "breakpoints": {"Large2": 1, "x": 10000}, "responsiveDimensions": true}'],
    ['{"security": {"allowedTypes": ["application/vnd.ms-excel", "image/svg+xml", "*/*", "x_y/a-b.c"]}}'],
  ])('opens a project whose upload section is %s', async (section) => {
    await expect(openWith(section)).resolves.toBe('opened');
  });
});
