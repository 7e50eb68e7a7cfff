import { resolve } from 'node:path';
import { deletedOnOneSide, type MergeProblem } from './merge-state.js';
import { driverProblem } from './setup.js';

/**
 * What `folio validate` asks git: document files a merge left unresolved (deleted on one side), and why the
 * merge driver would not run in this clone (said once, as a note). Nothing when the project is not in git.
 */
export async function gitNotes(dir: string): Promise<{ unresolved: MergeProblem[]; driver: string | undefined }> {
  const root = resolve(dir);
  const [unresolved, driver] = await Promise.all([deletedOnOneSide(root), driverProblem(root)]);
  return { unresolved, driver };
}
