import { join, resolve } from 'node:path';
import { listLargeFolders } from './startup/folder-listing.js';

/**
 * Starts, ahead of `openProject`, the listing of the project's large collection folders on the thread pool
 * (see startup/folder-listing.ts), so it runs while the rest of the command's modules load. Part of the
 * project's opening code, in a module of its own so that starting it loads nothing else. Only a head start:
 * the load takes the listings if their folders are unchanged since. `useSnapshot`: the load will use a
 * start-up snapshot, which may spare the listings.
 */
export function listAhead(dir: string, useSnapshot: boolean): void {
  void listLargeFolders(join(resolve(dir), 'content'), useSnapshot);
}
