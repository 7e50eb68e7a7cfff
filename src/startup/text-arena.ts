import { closeSync, readSync } from 'node:fs';
import { openForReading, readAll } from '../store/read-file.js';

/**
 * Texts of document files kept in memory, in a few large buffers: a reader thread keeps the texts it reads
 * for a command that decodes every document at once (see read-block.ts).
 */

/** Where kept texts live. Documents point into one by offset: no object per text until it is decoded. */
export interface TextSource {
  text(offset: number, length: number): string;
  bytes(offset: number, length: number): Buffer;
}

export class BufferText implements TextSource {
  constructor(readonly buf: Buffer<ArrayBufferLike>) {}
  text(offset: number, length: number) {
    return this.buf.toString('utf8', offset, offset + length);
  }
  bytes(offset: number, length: number) {
    return this.buf.subarray(offset, offset + length);
  }
}

/**
 * Keeps copies of many small texts in a few large buffers: 100,000 separate allocations cost more than
 * the reads they copy.
 */
export class TextArena {
  /**
   * `chunkBytes`: the size of each buffer (a reader sending its texts in batches uses small ones).
   * `shared`: in SharedArrayBuffers, for a reader thread to post without transferring them: the first
   * buffer a thread detaches makes V8 check for detached buffers on every typed-array access after,
   * which doubled the reader threads' scanning time.
   */
  constructor(
    private readonly chunkBytes = 8 * 1024 * 1024,
    private readonly shared = false,
    /** The one buffer to use, given (a slot of a ring, see parallel-read.ts): a text that does not fit throws. */
    private readonly fixed?: Buffer<ArrayBufferLike>,
  ) {
    if (fixed) {
      this.chunk = fixed;
      this.source = new BufferText(fixed);
      this.chunks.push(fixed);
    }
  }
  private chunk: Buffer<ArrayBufferLike> = Buffer.allocUnsafe(0);
  private source = new BufferText(this.chunk);
  private used = 0;
  /** Every buffer handed out so far (a reader thread posts them with its block). */
  readonly chunks: Array<Buffer<ArrayBufferLike>> = [];

  /** Room for `length` bytes at `chunk[offset…]`; `commit` keeps what was written there. */
  reserve(length: number): { chunk: Buffer; offset: number } {
    if (this.used + length > this.chunk.length) {
      if (this.fixed) throw new RangeError('no room left for the text');
      // Never from Buffer's shared pool: each chunk owns its buffer, so it can cross to another thread whole.
      const bytes = Math.max(this.chunkBytes, length);
      this.chunk = Buffer.from(this.shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes));
      this.source = new BufferText(this.chunk);
      this.chunks.push(this.chunk);
      this.used = 0;
    }
    return { chunk: this.chunk, offset: this.used };
  }

  commit(length: number): { source: BufferText; offset: number } {
    const offset = this.used;
    this.used += length;
    return { source: this.source, offset };
  }

  /** Copies `from[0, length)`; the copy is `source`'s `[offset, offset + length)`. */
  copy(from: Buffer, length: number): { source: BufferText; offset: number } {
    const { chunk, offset } = this.reserve(length);
    from.copy(chunk, offset, 0, length);
    return this.commit(length);
  }
}

/** The least room a read is given in the arena: a longer file is read again whole. */
const MIN_ROOM = 64 * 1024;

/** A file's bytes kept in an arena: `chunk[offset, offset + length)`, which is also `source`'s. */
interface Kept {
  chunk: Buffer;
  source: BufferText;
  offset: number;
  length: number;
}

/**
 * Reads an open file whole into `arena`, in one read when it fits the room left (the byte after it is
 * left unwritten).
 */
function readOpenInto(fd: number, scratch: { buf: Buffer }, arena: TextArena): Kept {
  const { chunk, offset } = arena.reserve(MIN_ROOM);
  // One byte less than the room, so a read that fills it shows the file may go on.
  const room = chunk.length - offset - 1;
  const got = readSync(fd, chunk, offset, room, 0);
  if (got < room) return { chunk, ...arena.commit(got), length: got };
  const length = readAll(fd, scratch);
  const kept = arena.copy(scratch.buf, length);
  return { chunk: arena.chunks[arena.chunks.length - 1], ...kept, length };
}

/** Reads a whole file into `arena` without taking its stamp (open, one read, close). */
export function readKept(path: string, scratch: { buf: Buffer }, arena: TextArena, contentDir?: string): Kept {
  const fd = openForReading(path, contentDir);
  try {
    return readOpenInto(fd, scratch, arena);
  } finally {
    closeSync(fd);
  }
}
