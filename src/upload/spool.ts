import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FolioError } from '../errors.js';
import { TEMP_MARK } from '../store/atomic.js';

/** An uploaded file written to a temp file next to its final place, with its size and content digest. */
export interface IncomingFile {
  /** The temp file (inside the uploads folder, so the final rename is atomic). */
  tmpPath: string;
  size: number;
  /** sha256 of the content, hex. */
  sha256: string;
  /** The client's file name (base name only; metadata, never used as a path). */
  filename: string;
  /** The client's Content-Type: only used to catch a file that claims to be an image and is not. */
  declaredType: string;
}

export const fileTooBig = () => new FolioError(413, 'PayloadTooLargeError', 'FileTooBig', {});

/** A fresh temp path in `dir`, named so stray temps are recognised and removed at start. */
export function tempPath(dir: string, label = 'upload'): string {
  return join(dir, `${TEMP_MARK}${label}-${randomBytes(8).toString('hex')}`);
}

/**
 * Streams `source` into a new temp file in `dir`, hashing as it goes. With `limit`, more than `limit`
 * bytes fails with 413 `FileTooBig` and the temp file is removed; any failure removes it.
 */
export async function spoolToTemp(
  source: Readable,
  dir: string,
  limit?: number,
): Promise<{ tmpPath: string; size: number; sha256: string }> {
  await mkdir(dir, { recursive: true });
  const tmpPath = tempPath(dir);
  const hash = createHash('sha256');
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (limit !== undefined && size > limit) {
        done(fileTooBig());
        return;
      }
      hash.update(chunk);
      done(null, chunk);
    },
  });
  const out = createWriteStream(tmpPath, { flags: 'wx', mode: 0o644 });
  try {
    await pipeline(source, meter, out);
  } catch (err) {
    // A source that failed at once fails the pipeline before the file is even open: removed before that,
    // the file would be created after and left behind.
    if (!out.closed) await new Promise<void>((done) => out.once('close', () => done()));
    await unlink(tmpPath).catch(() => undefined);
    throw err;
  }
  return { tmpPath, size, sha256: hash.digest('hex') };
}

/** Removes temp files, ignoring the ones already gone (renamed into place or never written). */
export async function removeTemps(paths: Iterable<string>): Promise<void> {
  await Promise.all([...paths].map((p) => unlink(p).catch(() => undefined)));
}
