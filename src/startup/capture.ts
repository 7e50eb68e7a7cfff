import type { StartupFiles } from './files.js';
import { type CollectionSnapshot, type RecordedEntries, type SnapshotEntry, TICK } from './snapshot.js';
import { STAMP } from './stamp-range.js';
import { renumber } from '../documents/summary.js';
import type { ThreadBlock } from './parallel-read.js';
import { META } from './read-block.js';

const turn = () => new Promise<void>((r) => setImmediate(r));

/**
 * What the next snapshot records of one collection. Files read on threads are only noted while loading:
 * they were read without their stamps (see read-block.ts), so their entries are made when the snapshot
 * is built, and their files stamped then.
 */
export class CollectionCapture {
  /** Entries, or positions in `unchanged` (entries of the snapshot read at start, made when built). */
  private entries: Array<SnapshotEntry | number> = [];
  private unchanged: { entries: RecordedEntries; codes: string[] } | undefined;
  private readonly table = new Map<string, number>();
  private readonly later: ThreadBlock[] = [];
  private readonly laterAt: number[] = [];
  /** The next start may skip listing the folder only if every file in it is recorded. */
  complete = true;

  constructor(
    private readonly pluralName: string,
    private readonly fingerprint: string,
    private readonly dirMtimeMs: number,
    private readonly takenAt: number,
  ) {}

  /** Records an entry, its summary renumbered into this collection's table. */
  record(entry: SnapshotEntry, codes: string[]) {
    // Modified too close to the start of the reads to be trusted later (coarse file clocks): left out.
    if (entry.mtimeMs >= this.takenAt - TICK) {
      this.complete = false;
      return;
    }
    const summary = renumber(entry.summary, codes, this.table);
    this.entries.push(summary === entry.summary ? entry : { ...entry, summary });
  }

  /**
   * Records entry `p` of the snapshot read at start (its file unchanged), as an entry when the snapshot is built:
   * most restarts write none, and a million entries made as objects cost a restart time and memory.
   */
  recordUnchanged(entries: RecordedEntries, p: number, codes: string[]) {
    this.unchanged ??= { entries, codes };
    this.entries.push(p);
  }

  /** Records the file that starts at `at` in a thread's block, when the snapshot is built. */
  recordLater(block: ThreadBlock, at: number) {
    this.later.push(block);
    this.laterAt.push(at);
  }

  async build(files: StartupFiles): Promise<CollectionSnapshot> {
    const ids = this.later.map((block, j) => block.ids[block.meta[this.laterAt[j] + META.index]]);
    const stamped = ids.length ? await files.stampCollection(this.pluralName, ids) : undefined;
    // A file stamped now holds what was read at start only if nothing touched it since the reads began:
    // its ctime says so (no tool can set it back, and a rename sets it), and the folder's mtime shows a
    // file renamed into place meanwhile. Then the summary made at start is the file's.
    const since = this.takenAt - TICK;
    const folderSteady = !!stamped && stamped.dirMtimeMs < since;
    // Entries recorded while loading (sorted by documentId, as files were indexed in that order), then those
    // of the threads' blocks (sorted too): merged below, rather than sorted, a slice at a time.
    const recorded = this.entries.splice(0);
    for (let k = 0; k < recorded.length; k++) {
      const e = recorded[k];
      if (typeof e !== 'number') this.entries.push(e);
      else this.record(this.unchanged!.entries.entry(e), this.unchanged!.codes);
      if ((k & 8191) === 8191) await turn();
    }
    this.unchanged = undefined;
    const direct = this.entries.splice(0) as SnapshotEntry[];
    for (let j = 0; j < ids.length; j++) {
      if ((j & 2047) === 2047) await turn();
      const { meta: m, table } = this.later[j];
      const at = this.laterAt[j];
      const s = j * STAMP;
      const [mtimeMs, size, ino, ctimeMs] = stamped ? stamped.files.subarray(s, s + STAMP) : [NaN, NaN, NaN, NaN];
      if (!folderSteady || !(ctimeMs < since)) {
        this.complete = false;
        continue;
      }
      const from = at + META.summary;
      this.record(
        { documentId: ids[j], mtimeMs, size, ino, summary: Array.from(m.subarray(from, from + m[at + META.count])) },
        table,
      );
    }
    this.later.length = 0;
    this.laterAt.length = 0;
    const threaded = this.entries.splice(0) as SnapshotEntry[];
    let a = 0;
    let b = 0;
    while (a < direct.length || b < threaded.length) {
      const takeA = b >= threaded.length || (a < direct.length && direct[a].documentId < threaded[b].documentId);
      this.entries.push(takeA ? direct[a++] : threaded[b++]);
      if ((this.entries.length & 65535) === 65535) await turn();
    }
    const dir = this.complete && !Number.isNaN(this.dirMtimeMs) ? this.dirMtimeMs : -1;
    const entries = this.entries as SnapshotEntry[];
    this.entries = [];
    return { fingerprint: this.fingerprint, dirMtimeMs: dir, table: [...this.table.keys()], entries };
  }
}
