import { type Stats, existsSync, readdirSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { DEFAULT_CONFIG, loadConfig } from '../config.js';
import { TEMP_MARK } from '../store/atomic.js';
import { idOfFileName } from '../store/document-id.js';
import { TICK } from './stamp-range.js';

/**
 * Listing a collection's folder. A first start of a large project can do nothing with its files until
 * the folder is listed, so `folio serve` starts listing the large
 * folders on libuv's thread pool as soon as it starts (`listLargeFolders`), while the main thread loads
 * the CLI and the project's modules, and the scan takes that listing (`listingOf`).
 */

/** A folder this size or larger probably holds 20,000 files or more (see StartupFiles.guessFiles). */
export const LARGE_FOLDER_BYTES = 384 * 1024;

/** The size from which a folder probably holds `files` files or more (`server.readThreadsFrom`). */
export const largeFolderBytes = (files: number) => (LARGE_FOLDER_BYTES / DEFAULT_CONFIG.server.readThreadsFrom) * files;

/** Where a project's start-up snapshot is kept, for the project whose `content/` is `contentDir`. */
export function snapshotFileOf(contentDir: string): string {
  return join(dirname(contentDir), '.folio', 'cache', 'documents.snapshot');
}

/** Listings started ahead, with the folder's stat taken just before each, and when. */
const ahead = new Map<string, { stat: Stats; at: number; names: Promise<string[]> }>();

/** A start takes its listings within seconds; one nobody took (another folder) is let go after this. */
const KEEP_MS = 60_000;

/**
 * Starts listing every large collection folder of `contentDir` (large: as the project's
 * `server.readThreadsFrom` says) that a start will list: all of them, unless a start-up snapshot may spare
 * that (`useSnapshot` and one is there). Only a head start: a listing nobody takes costs a little of the
 * thread pool's time. Resolves once the listings are done (for tests: a start does not wait for it).
 */
export function listLargeFolders(contentDir: string, useSnapshot: boolean): Promise<void> {
  const started: Array<Promise<unknown>> = [];
  try {
    if (useSnapshot && existsSync(snapshotFileOf(contentDir))) return Promise.resolve();
    const large = largeFolderBytes(threadsFromOf(contentDir));
    const documents = join(contentDir, 'documents');
    for (const name of readdirSync(documents)) {
      const dir = join(documents, name);
      const at = Date.now();
      const stat = statSync(dir);
      if (!stat.isDirectory() || stat.size < large) continue;
      const names = readdir(dir);
      started.push(names.catch(() => undefined));
      ahead.set(dir, { stat, at, names });
    }
  } catch {
    // Whatever cannot be read here is met again, and reported, by the load itself.
  }
  if (started.length) setTimeout(() => ahead.clear(), KEEP_MS).unref();
  return Promise.all(started).then(() => undefined);
}

/** The project's `server.readThreadsFrom`; the default when folio.json cannot be read (the load reports why). */
function threadsFromOf(contentDir: string): number {
  try {
    return loadConfig(contentDir).server.readThreadsFrom;
  } catch {
    return DEFAULT_CONFIG.server.readThreadsFrom;
  }
}

/**
 * A folder's document ids (its `.json` files, sorted) and how many temp files killed writers left there,
 * `stat` being the folder's stat now: from the listing started ahead if the folder is the same and its
 * mtime unchanged since, else listed now. A snapshot records that mtime as the names listed, so the
 * listing must have begun after it by a clock tick (as `RecordedEntries.unchanged` requires of files): a change in the
 * same tick would leave the mtime as it was.
 */
export async function listingOf(dir: string, stat: Stats): Promise<{ ids: string[]; strays: number }> {
  const early = ahead.get(dir);
  ahead.delete(dir);
  if (
    early &&
    early.stat.ino === stat.ino &&
    early.stat.dev === stat.dev &&
    early.stat.mtimeMs === stat.mtimeMs &&
    stat.mtimeMs < early.at - TICK
  ) {
    const names = await early.names.catch(() => undefined);
    if (names) return documentIds(names);
  }
  return documentIds(readdirSync(dir));
}

/*
 * The loop over a large folder's 100,000 names is a function of its own: the optimising compiler enters
 * a long loop in the middle of its function, and code after it that has not run yet sent the whole
 * function back to the interpreter, to be compiled again.
 */
function documentIds(names: string[]): { ids: string[]; strays: number } {
  const ids: string[] = [];
  let strays = 0;
  for (const n of names) {
    if (n.startsWith(TEMP_MARK)) strays++;
    else {
      const id = idOfFileName(n);
      if (id !== undefined) ids.push(id);
    }
  }
  ids.sort();
  return { ids, strays };
}
