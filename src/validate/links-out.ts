import { readdirSync, readlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { OutsideContentError, realPathInside } from '../store/content-bounds.js';

/**
 * Every symbolic link under content/ that leads out of it, with where it points: Folio reads, indexes and serves
 * nothing through one (store/content-bounds.ts), and a link committed there is how a pull request would try to
 * serve a file of the server (`uploads/cover.jpg` -> `../../.folio/secrets.json`). Links that stay inside are
 * followed by the server and not listed; folders are walked without following links.
 */
export function linksOutOfContent(contentDir: string): Array<{ file: string; target: string }> {
  const found: Array<{ file: string; target: string }> = [];
  const walk = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isSymbolicLink() && leadsOut(contentDir, path))
        found.push({ file: relative(contentDir, path), target: readlinkSync(path) });
    }
  };
  walk(contentDir);
  return found;
}

function leadsOut(contentDir: string, path: string): boolean {
  try {
    realPathInside(contentDir, path);
    return false;
  } catch (err) {
    // A link to nothing reads nothing: it is the loader's to report where it matters.
    return err instanceof OutsideContentError;
  }
}
