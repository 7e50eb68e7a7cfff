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
  /** The three versions were not all document JSON: git's own line merge did it (and this many conflicts). */
  lineMerge?: number;
}

/**
 * The merge driver: merges the document file `theirs` into `ours` (git's `%A`, which holds the result)
 * against `base`, per locale, version and field. It reads only the three versions and the project's schema
 * files, as data, and runs nothing from the repository; a file that is not document JSON (one already
 * holding conflict markers) is left to git's line merge.
 */
export async function mergeDocumentFile(args: MergeFileArgs): Promise<MergeFileResult> {
  const read = (file: string) => {
    try {
      const body = JSON.parse(readFileSync(file, 'utf8')) as unknown;
      return isObject(body) ? body : undefined;
    } catch {
      return undefined;
    }
  };
  const base = read(args.base);
  const ours = read(args.ours);
  const theirs = read(args.theirs);
  const size = args.markerSize ?? 7;
  if (!ours || !theirs || (!base && readFileSync(args.base, 'utf8').trim() !== '')) {
    const r = await runGit(args.cwd ?? process.cwd(), [
      'merge-file',
      `--marker-size=${size}`,
      '-L',
      'ours',
      '-L',
      'base',
      '-L',
      'theirs',
      '--',
      args.ours,
      args.base,
      args.theirs,
    ]);
    return { conflicts: [], lineMerge: r.code };
  }
  const merged = mergeDocument(contextOf(args.cwd ?? process.cwd(), args.path), base, ours, theirs);
  const { text, conflicts } = renderMerged(merged, { markerSize: size });
  writeFileSync(args.ours, text);
  return { conflicts };
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
