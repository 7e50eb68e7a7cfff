import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, sep } from 'node:path';

/*
 * Git stores a symbolic link as a one-line file, so a commit can put one anywhere under content/: a "new image"
 * that is a link to ../../.folio/secrets.json looks like a changed image in a review. Folio reads, indexes and serves
 * nothing through a link that leads out of content/ (a link that stays inside it is followed). Reads of many files
 * (a start) open each without following a final link and check their folders once; single reads resolve the path.
 */

/** A path under content/ that a symbolic link leads out of content/: not read, served or written through. */
export class OutsideContentError extends Error {
  readonly code = 'EOUTSIDE';
  constructor(readonly path: string) {
    super('is a symbolic link (or inside one) that leads out of content/: Folio does not follow it');
  }
}

/** The real path of each content folder asked about (the folder itself may be a link: the user's choice). */
const roots = new Map<string, string>();

function realRoot(contentDir: string): string {
  let real = roots.get(contentDir);
  if (real === undefined) {
    real = realpathSync.native(contentDir);
    if (roots.size > 64) roots.clear();
    roots.set(contentDir, real);
  }
  return real;
}

const within = (root: string, real: string) => {
  const rel = relative(root, real);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
};

/**
 * The real path of `path` (a file or folder under `contentDir`) when it lies inside content/, following every link
 * on the way; throws OutsideContentError when a link leads out, and the file system's error (ENOENT) when it is
 * not there.
 */
export function realPathInside(contentDir: string, path: string): string {
  const real = realpathSync.native(path);
  if (!within(realRoot(contentDir), real)) throw new OutsideContentError(path);
  return real;
}

/**
 * Whether a folder under `contentDir` may be listed, read and written: it lies inside content/ once every link on
 * the way is followed, or it is not there and the nearest folder above it that is does (a write would make it
 * there).
 */
export function folderInside(contentDir: string, dir: string): boolean {
  for (let at = dir; ; at = dirname(at)) {
    try {
      realPathInside(contentDir, at);
      return true;
    } catch (err) {
      if (err instanceof OutsideContentError) return false;
      const code = (err as NodeJS.ErrnoException).code;
      // Unreadable for another reason: the read that follows meets it and says so.
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || at === contentDir || dirname(at) === at) return true;
    }
  }
}
