import { relative } from 'node:path';
import { inGitCheckout } from './setup.js';
import { runGit } from './run.js';
import { markedConflicts } from './merge/conflict-text.js';

/** A problem `folio validate` lists for a file a merge left unresolved. */
export interface MergeProblem {
  file: string;
  path: string;
  message: string;
}

/**
 * The conflicts marked in a file's text as `folio validate` lists them: the field (the path the driver's
 * markers name, else the line of git's own markers) and both values. Empty when the text has no markers.
 */
export function conflictProblems(text: string): Array<{ path: string; message: string }> {
  return markedConflicts(text).map((c) => ({
    path: c.path ?? `${c.line}:1`,
    message:
      `merge conflict: ours ${c.ours}, theirs ${c.theirs} (line ${c.line}); keep one side and delete the ` +
      `marker lines${c.path ? '' : ' (git merged this file by lines: run "folio git setup" to merge per field)'}`,
  }));
}

/**
 * Document files a merge left with one side deleted and the other changed (git's modify/delete conflict:
 * the driver cannot merge a file that one side removed). The file on disk is one side's, valid JSON, so
 * only git knows the merge is not done.
 */
export async function deletedOnOneSide(projectRoot: string): Promise<MergeProblem[]> {
  if (!inGitCheckout(projectRoot)) return [];
  const r = await runGit(projectRoot, ['ls-files', '-u', '-z', '--full-name', '--', 'content']);
  if (r.code !== 0) return [];
  const stages = new Map<string, Set<string>>();
  for (const entry of r.stdout.split('\0')) {
    const m = /^\d+ [0-9a-f]+ ([123])\t(.+)$/s.exec(entry);
    if (m) stages.set(m[2], (stages.get(m[2]) ?? new Set()).add(m[1]));
  }
  const top = (await runGit(projectRoot, ['rev-parse', '--show-toplevel'])).stdout.trim();
  const out: MergeProblem[] = [];
  for (const [file, s] of stages) {
    if (s.has('2') && s.has('3')) continue; // both sides have it: its markers are listed with the file
    const shown = relative(projectRoot, `${top}/${file}`);
    out.push({
      file: shown,
      path: '',
      message:
        `${s.has('2') ? 'deleted on the branch being merged' : 'deleted on this branch'} and changed on the ` +
        `other: keep it with "git add ${shown}" or remove it with "git rm ${shown}"`,
    });
  }
  return out;
}
