import { readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { loadSchemas } from '../../schema/registry.js';
import { runGit } from '../run.js';
import { mergeDocument, type MergeContext } from './document.js';
import { renderMerged } from './conflict-text.js';
import { isObject } from './three-way.js';

/** What git hands a merge driver (`%O %A %B %P %L`): the three versions' files, the file's path, the marker size. */
export interface MergeFileArgs {
  base: string;
  ours: string;
  theirs: string;
  /** The path of the file in the repository (relative to `cwd`, git's top level), to find its content-type. */
  path?: string;
  markerSize?: number;
  cwd?: string;
}

export interface MergeFileResult {
  /** The conflicts left in the file (0: merged cleanly). */
  conflicts: Array<{ path: string; ours: unknown; theirs: unknown }>;
  /** The three versions were not merged per field: git's own line merge did it (and left this many conflicts). */
  lineMerge?: number;
  /** Why the line merge did it, when the versions are JSON documents the driver would not merge per field. */
  reason?: string;
}

/**
 * The deepest nesting the driver merges per field. The API takes bodies nested at most 64 levels, so no document
 * Folio writes comes near it; a deeper file (a hand edit, another tool) goes to git's line merge instead of
 * recursion that could run out of stack.
 */
export const MAX_MERGE_DEPTH = 200;

/**
 * The merge driver: merges the document file `theirs` into `ours` (git's `%A`, which holds the result)
 * against `base`, per locale, version and field. It reads only the three versions and the project's schema
 * files, as data, and runs nothing from the repository. A file that is not document JSON (one already holding
 * conflict markers), one nested deeper than MAX_MERGE_DEPTH, or any failure of the merge per field is left to
 * git's line merge; when even that fails, the file holds both sides whole between conflict markers. Whatever
 * happens, a conflict is one the file shows: never our side, silently.
 */
export async function mergeDocumentFile(args: MergeFileArgs): Promise<MergeFileResult> {
  const size = args.markerSize ?? 7;
  const texts = [args.base, args.ours, args.theirs].map((file) => readFileSync(file, 'utf8'));
  const [base, ours, theirs] = texts.map(documentOf);
  if (!ours || !theirs || (!base && texts[0].trim() !== '')) return lineMerge(args, texts, size);
  const deep = [base, ours, theirs].some((body) => body && deeperThan(body, MAX_MERGE_DEPTH));
  if (deep) return lineMerge(args, texts, size, `nested more than ${MAX_MERGE_DEPTH} levels deep`);
  let merged: { text: string; conflicts: MergeFileResult['conflicts'] };
  try {
    const tree = mergeDocument(contextOf(args.cwd ?? process.cwd(), args.path), base, ours, theirs);
    merged = renderMerged(tree, { markerSize: size });
  } catch (err) {
    return lineMerge(args, texts, size, `the merge per field failed: ${(err as Error).message}`);
  }
  writeFileSync(args.ours, merged.text);
  return { conflicts: merged.conflicts };
}

/** A file's text as a document body: a JSON object, else undefined. */
function documentOf(text: string): Record<string, unknown> | undefined {
  try {
    const body = JSON.parse(text) as unknown;
    return isObject(body) ? body : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a JSON value nests more than `max` objects and arrays deep (walked without recursion). */
export function deeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (!v || typeof v !== 'object') continue;
    if (depth > max) return true;
    for (const x of Object.values(v)) if (x && typeof x === 'object') stack.push([x, depth + 1]);
  }
  return false;
}

/**
 * git's own line merge of the three texts into `ours` (conflict markers around the lines both sides changed).
 * When git cannot do it, both sides whole between markers: a conflict a person sees and resolves by hand.
 */
async function lineMerge(args: MergeFileArgs, texts: string[], size: number, reason?: string) {
  const labels = ['-L', 'ours', '-L', 'base', '-L', 'theirs'];
  const files = [args.ours, args.base, args.theirs];
  const r = await runGit(args.cwd ?? process.cwd(), ['merge-file', `--marker-size=${size}`, ...labels, '--', ...files]);
  // git merge-file answers the number of conflicts (at most 127), or a negative number when it failed; a
  // conflict it reports must show in the file (127 is also what a git that could not start gives).
  const marked = () => `\n${readFileSync(args.ours, 'utf8')}`.includes(`\n${'<'.repeat(size)} ours`);
  if (r.code === 0 || (r.code > 0 && r.code < 128 && marked()))
    return { conflicts: [], lineMerge: r.code, ...(reason ? { reason } : {}) };
  const end = (text: string) => (text === '' || text.endsWith('\n') ? text : `${text}\n`);
  const [, ours, theirs] = texts;
  writeFileSync(
    args.ours,
    `${'<'.repeat(size)} ours\n${end(ours)}${'='.repeat(size)}\n${end(theirs)}${'>'.repeat(size)} theirs\n`,
  );
  const why = `git merge-file failed (exit ${r.code}${r.stderr.trim() ? `: ${r.stderr.trim().split('\n')[0]}` : ''})`;
  return { conflicts: [], lineMerge: 1, reason: reason ? `${reason}; ${why}` : why };
}

/** The content-type of the document file at `path` (`<project>/content/documents/<plural>/<id>.json`). */
function contextOf(cwd: string, path: string | undefined): MergeContext {
  if (!path) return {};
  const file = resolve(cwd, path);
  const collection = dirname(file);
  if (basename(dirname(collection)) !== 'documents') return {};
  try {
    const schemas = loadSchemas(dirname(dirname(collection)));
    return { schemas, ct: schemas.byPluralName(basename(collection)) };
  } catch {
    return {};
  }
}
