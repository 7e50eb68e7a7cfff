import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, makeProject } from './helpers/project.js';
import { RED_PNG, SVG, filesUnder, png, sha256 } from './helpers/media.js';
import { runFolio } from './helpers/cli.js';

const hasSharp = await import('sharp').then(
  () => true,
  () => false,
);

/** The CLI in this process (see helpers/cli.ts): what these tests check is what it prints and writes. */
const folio = (dir: string, args: string[]) => runFolio(['--dir', dir, ...args]);

/** The CLI in a process of its own, as a user runs it: its warnings are said once per process. */
function spawned(dir: string, args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [BIN, '--dir', dir, ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('folio media', () => {
  let project: ReturnType<typeof makeProject>;
  beforeAll(() => {
    project = makeProject();
    writeFileSync(join(project.dir, 'red.png'), RED_PNG);
    writeFileSync(join(project.dir, 'big.png'), png(800, 400));
    writeFileSync(join(project.dir, 'notes.txt'), 'hello\n');
    writeFileSync(join(project.dir, 'logo.svg'), SVG);
  });
  afterAll(() => project.cleanup());

  it('adds files with --alt and --caption and prints file objects with --json', async () => {
    const r = await folio(project.dir, [
      'media',
      'add',
      join(project.dir, 'red.png'),
      join(project.dir, 'notes.txt'),
      '--alt',
      'Red',
      '--caption',
      'A caption',
      '--json',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const files = JSON.parse(r.stdout);
    expect(files).toHaveLength(2);
    expect(files[0]).toMatchObject({
      id: 1,
      name: 'red.png',
      alternativeText: 'Red',
      caption: 'A caption',
      width: 4,
      height: 4,
      mime: 'image/png',
      ext: '.png',
    });
    expect(files[0].hash).toBe(`red_${sha256(RED_PNG).slice(0, 10)}`);
    expect(files[1]).toMatchObject({ id: 2, name: 'notes.txt', mime: 'text/plain', width: null });
    expect(files[0].isUrlSigned).toBeUndefined();
    expect(readFileSync(join(project.contentDir, 'uploads', `${files[0].hash}.png`)).equals(RED_PNG)).toBe(true);
    expect(existsSync(join(project.contentDir, 'uploads', '_records', `${files[0].documentId}.json`))).toBe(true);
  });

  it('without sharp (FOLIO_NO_SHARP=1) measures images, makes no formats and says so once', async () => {
    const off = spawned(project.dir, ['media', 'add', join(project.dir, 'big.png'), '--json'], {
      FOLIO_NO_SHARP: '1',
    });
    expect(off.code).toBe(0);
    expect(off.stderr.match(/image formats are off/g)).toHaveLength(1);
    expect(JSON.parse(off.stdout)[0]).toMatchObject({ width: 800, height: 400, formats: null });
  });

  // sharp is an optional dependency; CI installs it.
  it.skipIf(!hasSharp)('makes formats for large images', async () => {
    // In this process: the formats are checked, not what a process says once.
    const on = await folio(project.dir, ['media', 'add', join(project.dir, 'big.png')]);
    expect(on.code).toBe(0);
    expect(on.stdout).toMatch(
      /^added 4 [a-z0-9]{24} \/uploads\/big_[0-9a-f]{10}\.png \(image\/png, [\d.]+ KB, 800x400, formats: thumbnail medium small\)\n$/,
    );
  });

  it('refuses an SVG and leaves nothing behind', async () => {
    const before = filesUnder(join(project.contentDir, 'uploads'));
    const r = await folio(project.dir, ['media', 'add', join(project.dir, 'logo.svg')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("File type 'image/svg+xml' is not allowed");
    expect(filesUnder(join(project.contentDir, 'uploads'))).toEqual(before);
  });

  it('refuses a missing file and a file over the size limit', async () => {
    expect((await folio(project.dir, ['media', 'add', join(project.dir, 'nope.png')])).stderr).toContain(
      'no such file',
    );
    const small = makeProject({ config: { upload: { sizeLimit: 50 } } });
    try {
      const r = await folio(small.dir, ['media', 'add', join(project.dir, 'red.png')]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('larger than the upload limit of 50 bytes');
      expect(filesUnder(join(small.contentDir, 'uploads'))).toEqual([]);
    } finally {
      small.cleanup();
    }
  });

  it('lists the library', async () => {
    const r = await folio(project.dir, ['media', 'list']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^id\s+documentId\s+name\s+mime\s+size\s+url$/);
    expect(lines[1]).toMatch(
      /^1\s+[a-z0-9]{24}\s+red\.png\s+image\/png\s+0\.07 KB\s+\/uploads\/red_[0-9a-f]{10}\.png$/,
    );
    const json = JSON.parse((await folio(project.dir, ['media', 'list', '--json'])).stdout);
    expect(json.map((f: { id: number }) => f.id)).toEqual(hasSharp ? [1, 2, 3, 4] : [1, 2, 3]);
  });

  it('removes a file by documentId or id, clearing it from documents', async () => {
    const [red] = JSON.parse((await folio(project.dir, ['media', 'list', '--json'])).stdout);
    const created = await folio(project.dir, [
      'docs',
      'create',
      'authors',
      '--data',
      JSON.stringify({ name: 'Ann', avatar: red.documentId }),
      '--json',
    ]);
    expect(created.code).toBe(0);
    const authorId = JSON.parse(created.stdout).data.documentId;
    const docFile = join(project.contentDir, 'documents', 'authors', `${authorId}.json`);
    expect(readFileSync(docFile, 'utf8')).toContain(red.documentId);

    const r = await folio(project.dir, ['media', 'rm', red.documentId]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`removed 1 ${red.documentId} red.png (cleared from 1 document)\n`);
    expect(readFileSync(docFile, 'utf8')).not.toContain(red.documentId);
    expect(existsSync(join(project.contentDir, 'uploads', `${red.hash}.png`))).toBe(false);
    expect(existsSync(join(project.contentDir, 'uploads', '_records', `${red.documentId}.json`))).toBe(false);

    const byId = await folio(project.dir, ['media', 'rm', '2', '--json']);
    expect(JSON.parse(byId.stdout)).toMatchObject({ data: { id: 2, name: 'notes.txt' }, detached: 0 });
    const missing = await folio(project.dir, ['media', 'rm', '2']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No file with id or documentId "2"');
  });
});
