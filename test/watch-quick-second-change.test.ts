import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FSWatcher } from 'chokidar';
import { FIXTURE_CONFIG, makeProject } from './helpers/project.js';
import { openProject, type Project } from '../src/project.js';
import { watchProject, type Watcher } from '../src/watch/watcher.js';

/**
 * A file saved again right after the watcher saw it change (an editor saving twice, a script fixing the
 * folio.json it just wrote) is followed like any change: the API ends up equal to the file's last content.
 */
describe('a file changed again right after a change was seen', () => {
  let made: ReturnType<typeof makeProject>;
  let project: Project;
  let watcher: Watcher;
  const reloads: Array<() => void> = [];
  beforeAll(async () => {
    made = makeProject();
    project = await openProject(made.dir);
    watcher = await watchProject(project, { onReload: () => reloads.splice(0).forEach((r) => r()) });
    await watcher.ready;
  });
  afterAll(async () => {
    await watcher.close();
    made.cleanup();
  });

  const file = () => join(made.contentDir, 'folio.json');
  /** Saves folio.json as an editor does: written aside, then renamed over it. */
  const save = (port: number) => {
    writeFileSync(`${file()}.tmp`, JSON.stringify({ ...FIXTURE_CONFIG, server: { port } }, null, 2));
    renameSync(`${file()}.tmp`, file());
  };
  /** Resolves once a reload leaves the served port at `port`; fails naming the port served after 10 s. */
  const serves = (port: number) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`still serving port ${project.config.server.port}`)), 10_000);
      const look = () => {
        if (project.config.server.port !== port) return void reloads.push(look);
        clearTimeout(timer);
        resolve();
      };
      reloads.push(look);
    });

  it('folio.json saved again the moment its first save is taken in', async () => {
    // The server's batch waits (as during its own git commands) until its watcher reports the first save, then
    // reads it at once; the second save follows that read, while the first change is still fresh.
    const reported = new Promise<void>((resolve) => {
      // The watcher's own chokidar instance is the server's: its events are seen where they all pass.
      const proto = FSWatcher.prototype as unknown as { emit(event: string, ...args: unknown[]): boolean };
      const emit = proto.emit;
      proto.emit = function (this: unknown, event: string, ...args: unknown[]) {
        if (event === 'change' && args[0] === file()) {
          proto.emit = emit;
          resolve();
        }
        return emit.call(this, event, ...args);
      };
    });
    const first = serves(4001).then(() => save(4002));
    const last = serves(4002);
    const held = project.checkout.rewrite(async () => {
      save(4001);
      await reported;
      return { value: undefined, files: [] };
    });
    await Promise.all([held, first]);
    await last;
    expect(project.config.server.port).toBe(4002);
  });
});
