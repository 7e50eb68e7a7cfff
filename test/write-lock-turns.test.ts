import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WriteLock } from '../src/store/write-lock.js';

/**
 * The project's write lock is held by a process while its writes run, side by side: a steady stream of them
 * (a busy server) still gives the lock back now and then, so another process (a CLI run) gets its turn.
 * Two WriteLock objects over one state folder stand for two processes: each holds the lock folder in turn.
 */
const temp = mkdtempSync(join(tmpdir(), 'folio-lock-turns-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));
const tick = () => new Promise((r) => setTimeout(r, 2));

describe('a steady stream of writes in one process', () => {
  it('lets a write of another process in before the stream ends', async () => {
    const stateDir = join(temp, 'stream');
    const server = new WriteLock(stateDir);
    const cli = new WriteLock(stateDir);
    let cliDone = false;
    let streamed = 0;
    let streamedWhenCliWrote = -1;
    // Three writes always in flight: the server's holders never all leave at once.
    const lane = async () => {
      while (!cliDone && streamed < 2000) {
        await server.run(async () => {
          await tick();
          streamed++;
        });
      }
    };
    const lanes = [lane(), lane(), lane()];
    while (streamed === 0) await tick();
    await cli.run(async () => {
      streamedWhenCliWrote = streamed;
    });
    cliDone = true;
    await Promise.all(lanes);
    expect(streamedWhenCliWrote).toBeGreaterThan(0);
    expect(streamedWhenCliWrote).toBeLessThan(2000);
  }, 60_000);
});
