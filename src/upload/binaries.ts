import { existsSync } from 'node:fs';
import { mkdir, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { fileChanged } from '../store/atomic.js';
import type { FileRecord, PreparedFile } from './file-record.js';

/** The stored files of an upload in `content/uploads/`: placed, named and removed. */

/** Moves an upload's prepared temp files (the file and each of its formats) to their stored names. */
export async function placeBinaries(uploadsDir: string, f: PreparedFile, record: FileRecord): Promise<void> {
  await mkdir(uploadsDir, { recursive: true });
  await rename(f.tmpPath, join(uploadsDir, `${record.hash}${record.ext}`));
  fileChanged(join(uploadsDir, `${record.hash}${record.ext}`), undefined);
  for (const fmt of f.formats ?? []) {
    const info = record.formats?.[fmt.key];
    if (!info) continue;
    await rename(fmt.tmpPath, join(uploadsDir, `${info.hash}${info.ext}`));
    fileChanged(join(uploadsDir, `${info.hash}${info.ext}`), undefined);
  }
}

/** Whether `<hash><ext>` or any of its format names is `used` (by another file) or lies on disk. */
export function nameTaken(
  uploadsDir: string,
  hash: string,
  ext: string,
  breakpoints: Record<string, number>,
  used: (name: string) => boolean,
): boolean {
  const names = [
    `${hash}${ext}`,
    `thumbnail_${hash}${ext}`,
    ...Object.keys(breakpoints).map((k) => `${k}_${hash}${ext}`),
  ];
  return names.some((n) => used(n) || existsSync(join(uploadsDir, n)));
}

/** Unlinks a stored file; answers whether it is gone now (a failure is told to `warn`, and answers false). */
export async function unlinkStored(uploadsDir: string, name: string, warn: (msg: string) => void): Promise<boolean> {
  try {
    await unlink(join(uploadsDir, name));
    fileChanged(join(uploadsDir, name), null);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return true;
    warn(`Folio: could not remove ${name}: ${(err as Error).message}`);
    return false;
  }
}
