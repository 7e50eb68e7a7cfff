import { type FSWatcher, type Stats, statSync, watch as watchDir } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { reloadProject, type Project } from '../project.js';
import { ConfigError } from '../config.js';
import { TEMP_MARK } from '../store/atomic.js';
import { SAFE_ID } from '../store/document-id.js';
import { OutsideContentError, folderInside } from '../store/content-bounds.js';
import type { Rewritten } from '../store/checkout.js';
import type { ContentType } from '../schema/types.js';
import { loadSchemas } from '../schema/registry.js';
import { LocalMediaLibrary } from '../upload/library.js';
import { listingDifferences } from './listing.js';

export interface WatchEvents {
  /** A file changed on disk and the server now reflects it (or kept the last good state: `problem`). */
  onChange?(change: { file: string; what: string; problem?: string }): void;
  /** Schemas or folio.json changed and the project was reloaded. */
  onReload?(summary: { documents: number; problems: number }): void;
  /** content/permissions.json changed. */
  onPermissions?(): void;
}

export interface Watcher {
  close(): Promise<void>;
  ready: Promise<void>;
}

const SETTLE_MS = 40;
/** A batch waits at most this long for changes to settle. */
const MAX_WAIT_MS = 200;
/** Document files read at once while handling a batch. */
const READ_AHEAD = 32;
/** Streams of this many changes or more are followed by a check of the touched folders against the index. */
const RECONCILE_FROM = 64;
/** Chokidar drops a file's further changes for this long after it reports one (a throttle with no trailing edge). */
const CHOKIDAR_THROTTLE_MS = 50;

/**
 * Watches `content/` with chokidar and keeps the in-memory state current: a changed document file or media
 * record is re-read on its own; a schema, component or folio.json change reloads the project. Changes arriving
 * together (a git checkout) are handled as one batch once they settle.
 */
export async function watchProject(project: Project, events: WatchEvents = {}): Promise<Watcher> {
  const { watch } = await import('chokidar');
  const pending = new Map<string, 'change' | 'unlink'>();
  let timer: NodeJS.Timeout | undefined;
  let running = Promise.resolve();

  const documentsDir = join(project.contentDir, 'documents');
  const insideDocuments = (path: string) => {
    const rel = relative(documentsDir, path);
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
  };
  const recordsDir = join(project.contentDir, 'uploads', '_records');
  const uploadsDir = dirname(recordsDir);
  const ignoredUpload = (path: string) =>
    path !== uploadsDir && path !== recordsDir && path.split(sep).includes('uploads');
  const watcher = watch(project.contentDir, {
    ignoreInitial: true,
    // Chokidar keeps a watcher and stats per file and walks every folder at start, which grows with the
    // number of documents: document files and media records are watched through their folders (below), and
    // of uploads/ only the records folder's coming and going is chokidar's.
    ignored: (path: string) => path.includes(TEMP_MARK) || ignoredUpload(path) || insideDocuments(path),
    awaitWriteFinish: false,
  });

  // When the first change of the pending batch came: a long stream of changes (a git switch of thousands
  // of files) is handled in batches at least every MAX_WAIT_MS, so the API follows while it goes on.
  let firstAt = 0;
  // While the server's own git commands rewrite the checkout (`holding`), changes wait in `pending`.
  let held = 0;
  const schedule = (file: string, kind: 'change' | 'unlink') => {
    if (!pending.size) firstAt = performance.now();
    pending.set(file, kind);
    if (held) return;
    if (timer) clearTimeout(timer);
    const wait = Math.max(0, Math.min(SETTLE_MS, firstAt + MAX_WAIT_MS - performance.now()));
    timer = setTimeout(() => {
      timer = undefined;
      running = running.then(flush, flush);
    }, wait);
  };

  // One fs.watch on documents/ and one per collection folder: events name the file, which is then read
  // again whatever the event was (a create, a change, a rename and a delete are handled the same way).
  // Each with the inode it watches: a folder removed and made again (a git switch) needs a new watch.
  const folders = new Map<string, { w: FSWatcher; ino: number }>();
  const watchFolder = (dir: string, onEvent: (name: string) => void) => {
    const ino = statSync(dir, { throwIfNoEntry: false })?.ino;
    if (ino === undefined) return;
    const known = folders.get(dir);
    if (known?.ino === ino) return;
    known?.w.close();
    try {
      const w = watchDir(dir, { persistent: true }, (_type, name) => {
        if (name) onEvent(String(name));
      });
      w.on('error', () => {
        w.close();
        if (folders.get(dir)?.w === w) folders.delete(dir);
      });
      folders.set(dir, { w, ino });
    } catch {
      folders.delete(dir);
    }
  };
  const unwatchFolder = (dir: string) => {
    folders.get(dir)?.w.close();
    folders.delete(dir);
  };
  const documentFile = (dir: string, name: string) => {
    if (name.endsWith('.json') && !name.startsWith(TEMP_MARK)) schedule(join(dir, name), 'change');
  };
  const collection = (dir: string, rescan: boolean) => {
    // A collection folder that is a link out of content/ holds nothing Folio serves (see store/content-bounds.ts).
    if (!folderInside(project.contentDir, dir)) {
      events.onChange?.({ file: dir, what: 'problem', problem: new OutsideContentError(dir).message });
      return collectionGone(dir);
    }
    watchFolder(dir, (name) => documentFile(dir, name));
    // Files written right after their folder was created can be missed: list the new folder once.
    if (rescan)
      void readdir(dir).then(
        (names) => {
          for (const n of names) documentFile(dir, n);
        },
        () => undefined,
      );
  };
  const collectionGone = (dir: string) => {
    unwatchFolder(dir);
    // Every document of the folder is gone with it.
    const ct = project.schemas.byPluralName(basename(dir));
    if (ct)
      for (const doc of [...project.documents.index.documents(ct.uid)])
        schedule(join(dir, `${doc.documentId}.json`), 'unlink');
  };
  const watchDocuments = async (rescan: boolean) => {
    watchFolder(documentsDir, (name) => {
      const dir = join(documentsDir, name);
      void stat(dir).then(
        (st) => {
          if (st.isDirectory()) collection(dir, true);
        },
        () => collectionGone(dir),
      );
    });
    for (const name of await readdir(documentsDir).catch(() => [] as string[])) {
      const dir = join(documentsDir, name);
      if ((await stat(dir).catch(() => undefined))?.isDirectory()) collection(dir, rescan);
    }
  };
  await watchDocuments(false);

  // Media records: one fs.watch on uploads/_records/, each event reading its file again, as for documents.
  const library = () => {
    const media = project.documents.media;
    return media instanceof LocalMediaLibrary ? media : undefined;
  };
  const recordFile = (name: string) => {
    if (name.endsWith('.json') && !name.startsWith(TEMP_MARK)) schedule(join(recordsDir, name), 'change');
  };
  const watchRecords = async (rescan: boolean) => {
    watchFolder(recordsDir, recordFile);
    // A folder made (or removed) again: what it holds now is compared with every record served.
    if (rescan) for (const id of (await library()?.recordNames()) ?? []) recordFile(`${id}.json`);
  };
  await watchRecords(false);

  watcher.on('add', (f) => schedule(f, 'change'));
  // A file changed again within chokidar's throttle (an editor saving twice, a script writing folio.json and then
  // fixing it) would never be reported: once that window has passed, the file is compared with what the event saw.
  let closed = false;
  const recheck = (file: string, seen: Stats | undefined) => {
    const timer = setTimeout(() => {
      void stat(file).then(
        (now) => {
          const same =
            seen &&
            now.ino === seen.ino &&
            now.size === seen.size &&
            now.mtimeMs === seen.mtimeMs &&
            now.ctimeMs === seen.ctimeMs;
          if (!same && !closed) schedule(file, 'change');
        },
        // A file gone since is chokidar's to report (unlink).
        () => undefined,
      );
    }, CHOKIDAR_THROTTLE_MS + 10);
    timer.unref();
  };
  watcher.on('change', (f, seen) => {
    schedule(f, 'change');
    recheck(f, seen);
  });
  watcher.on('unlink', (f) => schedule(f, 'unlink'));
  watcher.on('unlinkDir', (f) => {
    if (f === uploadsDir || f === recordsDir) {
      unwatchFolder(recordsDir);
      void watchRecords(true);
    }
    if (f !== documentsDir) return;
    // The collections' folders only: the media records' folder is watched in the same map.
    for (const dir of [...folders.keys()]) if (dirname(dir) === documentsDir) collectionGone(dir);
    unwatchFolder(documentsDir);
  });
  watcher.on('addDir', (dir) => {
    if (dir === documentsDir) void watchDocuments(true);
    if (dir === uploadsDir || dir === recordsDir) void watchRecords(true);
  });

  let stream = { count: 0, touched: new Set<ContentType>() };

  async function flush() {
    const batch = [...pending];
    pending.clear();
    // First: a project reload (below) keeps the media library as it is.
    await reloadRecords(batch.filter(([file]) => dirname(file) === recordsDir).map(([file]) => file));
    if (batch.some(([file]) => relative(project.contentDir, file) === 'permissions.json')) events.onPermissions?.();
    const structural = batch.some(([file]) => {
      const rel = relative(project.contentDir, file).split(sep);
      return rel[0] === 'types' || rel[0] === 'components' || rel[0] === 'folio.json';
    });
    // A schema set with a problem the served one has not (a truncated or renamed file, a bad attribute) is
    // not swapped in: requests keep the last good schemas until the files are fixed.
    const fresh = structural ? newSchemaProblems(project) : [];
    for (const p of fresh)
      events.onChange?.({ file: p.file, what: 'problem', problem: `${p.message}; keeping the last good schemas` });
    if (structural && !fresh.length) {
      try {
        const report = await reloadProject(project);
        events.onReload?.({ documents: report.documents, problems: report.problems.length });
        for (const p of report.problems) events.onChange?.({ file: p.file, what: 'problem', problem: p.message });
      } catch (err) {
        // The line names the file: the problem alone follows it.
        const problem = err instanceof ConfigError ? err.reason : (err as Error).message;
        events.onChange?.({
          file: 'content/folio.json',
          what: 'problem',
          problem: `${problem}; keeping the last good state`,
        });
      }
      return;
    }
    const touched = new Set<ContentType>();
    const files: Array<{ file: string; ct: ContentType; documentId: string }> = [];
    for (const [file] of batch) {
      const rel = relative(project.contentDir, file).split(sep);
      if (rel[0] !== 'documents' || rel.length !== 3 || !rel[2].endsWith('.json')) continue;
      const ct = project.schemas.byPluralName(rel[1]);
      const documentId = rel[2].slice(0, -5);
      if (!ct || !SAFE_ID.test(documentId)) continue;
      touched.add(ct);
      files.push({ file, ct, documentId });
    }
    // Read a few at a time: one by one, the reads of a large batch take longer than the rest of its work.
    for (let at = 0; at < files.length; at += READ_AHEAD) {
      const chunk = files.slice(at, at + READ_AHEAD);
      // The file is read whatever the event said: an atomic rename can be reported as unlink + add, and
      // only what is on disk now counts.
      const results = await Promise.all(
        chunk.map(({ ct, documentId }) => project.documents.reloadDocument(ct, documentId)),
      );
      results.forEach((result, i) => {
        const { file } = chunk[i];
        if (result === 'unchanged') return;
        if (typeof result === 'object') {
          const then = result.removed ? 'no longer served' : 'serving the last good version';
          events.onChange?.({ file, what: 'problem', problem: `${result.problem}; ${then}` });
        } else events.onChange?.({ file, what: result });
      });
    }
    // A stream of changes (handled in several batches) ends when nothing is pending after a batch.
    stream.count += files.length;
    for (const ct of touched) stream.touched.add(ct);
    if (pending.size) return;
    const { count, touched: all } = stream;
    stream = { count: 0, touched: new Set() };
    if (count >= RECONCILE_FROM) for (const ct of all) await reconcile(ct);
  }

  /** Record files changed in the stream of changes under way (see `stream`). */
  let recordStream = 0;

  async function reloadRecords(files: string[]) {
    const lib = library();
    if (!lib) return;
    for (const file of files) await reloadRecord(lib, file);
    recordStream += files.length;
    if (pending.size) return;
    // As for documents (see reconcile): after many changes, every record is compared with its file.
    if (recordStream >= RECONCILE_FROM)
      for (const id of await lib.recordNames()) await reloadRecord(lib, join(recordsDir, `${id}.json`));
    recordStream = 0;
  }

  async function reloadRecord(lib: LocalMediaLibrary, file: string) {
    const result = await lib.reloadRecord(basename(file, '.json'));
    if (result === 'unchanged') return;
    if (typeof result === 'object')
      events.onChange?.({ file, what: 'problem', problem: `${result.problem}; serving the last good version` });
    else events.onChange?.({ file, what: `media ${result}` });
  }

  /**
   * After many changes (a git switch), the folder's listing is compared with the index: the kernel drops
   * events when its queue fills, and a file missed that way would otherwise stay missing or stay served.
   */
  async function reconcile(ct: ContentType) {
    const dir = join(documentsDir, ct.pluralName);
    // A folder that became a link out of content/ was let go of as it changed (see `collection`).
    if (!folderInside(project.contentDir, dir)) return;
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const id of await listingDifferences(project.documents.index, ct.uid, names)) {
      const result = await project.documents.refreshDocument(ct, id);
      const file = join(dir, `${id}.json`);
      if (typeof result === 'object')
        events.onChange?.({ file, what: 'problem', problem: `${result.problem}; serving the last good version` });
      else if (result !== 'unchanged') events.onChange?.({ file, what: result });
    }
  }

  /** See ChangeFollower: no batch runs while `fn` does; then what it changed and what was seen, at once. */
  async function holding<T>(fn: () => Promise<Rewritten<T>>): Promise<T> {
    held++;
    if (timer) clearTimeout(timer);
    timer = undefined;
    let files: string[] = [];
    try {
      // A batch under way ends first: it would read files as git rewrites them.
      await running.catch(() => undefined);
      const done = await fn();
      files = done.files;
      return done.value;
    } finally {
      held--;
      for (const file of files) {
        const rel = relative(project.contentDir, file);
        if (rel && !rel.startsWith('..') && !isAbsolute(rel)) schedule(file, 'change');
      }
      if (!held && pending.size) {
        if (timer) clearTimeout(timer);
        timer = undefined;
        running = running.then(flush, flush);
        await running.catch(() => undefined);
      }
    }
  }
  const unfollow = project.checkout.follow({ holding });

  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return {
    ready,
    async close() {
      closed = true;
      unfollow();
      if (timer) clearTimeout(timer);
      for (const { w } of folders.values()) w.close();
      folders.clear();
      await watcher.close();
      await running;
    },
  };
}

/** Problems of the schema files as they are now that the served schema set does not have. */
function newSchemaProblems(project: Project): Array<{ file: string; message: string }> {
  const key = (p: { file: string; attribute?: string; message: string }) => `${p.file}\0${p.attribute}\0${p.message}`;
  const served = new Set(project.schemas.problems.map(key));
  return loadSchemas(project.contentDir)
    .problems.filter((p) => !served.has(key(p)))
    .map((p) => ({
      file: join(project.contentDir, p.file),
      message: p.attribute ? `attribute "${p.attribute}": ${p.message}` : p.message,
    }));
}
