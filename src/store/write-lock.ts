import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { FolioError } from '../errors.js';
import { KeyedLock } from './atomic.js';

/**
 * How long a lock whose holder stopped refreshing it (killed, or frozen) keeps others out: the holder
 * touches it every half of this, so a live one is never taken over.
 */
const STALE_MS = 5000;
/** How long a writer waits for the lock before giving up: a dead holder's lock goes stale well before. */
const WAIT_MS = 30_000;

/**
 * The project's write lock, shared by every process that writes its documents (the server, each CLI
 * run): a lock folder in `.folio/locks/` made and removed by proper-lockfile. Inside one process writers
 * queue in memory first, so only one of them at a time asks for the folder.
 */
export class WriteLock {
  private readonly queue = new KeyedLock();
  private readonly dir: string;

  constructor(stateDir: string) {
    this.dir = join(stateDir, 'locks');
  }

  run<T>(fn: () => Promise<T>): Promise<T> {
    return this.queue.run('write', async () => {
      const release = await this.acquire();
      try {
        return await fn();
      } finally {
        // A lock already released (taken over as stale) has nothing to give back.
        await release().catch(() => undefined);
      }
    });
  }

  private async acquire(): Promise<() => Promise<void>> {
    mkdirSync(this.dir, { recursive: true });
    const target = join(this.dir, 'documents');
    const started = Date.now();
    for (let delay = 2; ; delay = Math.min(delay * 2, 50)) {
      try {
        return await lockfile.lock(target, {
          realpath: false,
          lockfilePath: `${target}.lock`,
          stale: STALE_MS,
          // A lock found stale while held (the event loop was blocked for seconds) is reported, not thrown:
          // the write under it still checks each file's stamp before replacing it.
          onCompromised: (err) => process.emitWarning(`folio write lock: ${err.message}`),
        });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err;
        if (Date.now() - started > WAIT_MS)
          throw new FolioError(
            503,
            'ServiceUnavailableError',
            'Another process has held the write lock of this project for too long; try again',
            {},
          );
        await new Promise((r) => setTimeout(r, delay + Math.random() * delay));
      }
    }
  }
}
