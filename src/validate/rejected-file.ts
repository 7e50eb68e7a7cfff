import { basename, dirname } from 'node:path';
import type { Project } from '../project.js';
import { storedAttributes, type Status } from '../documents/model.js';
import type { ContentType } from '../schema/types.js';
import { jsonSyntaxErrors } from '../store/json-syntax.js';
import { conflictProblems } from '../git/merge-state.js';
import { readSmallFile } from '../store/read-file.js';

/** A problem found in a file the loader turned away: where in the file (a key path or `line:column`) and what. */
export interface FileProblem {
  path: string;
  message: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const TIMESTAMPS = ['id', 'createdAt', 'updatedAt', 'publishedAt'];

/**
 * Every problem of a file the loader rejected at its first one: each JSON syntax error with its line and
 * column, or for a document file each key that is not an attribute of its type, in every version (the
 * versions' values are then checked by `checkValues`, with the unknown keys left out). Undefined when the
 * file is not one this can look into (then the loader's message stands alone).
 */
export function recheckRejectedFile(
  project: Project,
  file: string,
  checkValues: (ct: ContentType, data: Record<string, unknown>, path: string, status: Status) => FileProblem[],
): FileProblem[] | undefined {
  let text: string;
  try {
    // Never through a link out of content/: its text would be printed (store/content-bounds.ts).
    text = readSmallFile(file, project.contentDir);
  } catch {
    return undefined;
  }
  // A merge left conflict markers: each conflict with its field and both values, not the syntax they break.
  const conflicts = conflictProblems(text);
  if (conflicts.length) return conflicts;
  const syntax = jsonSyntaxErrors(text);
  if (syntax.length)
    return syntax.map((e) => ({ path: `${e.line}:${e.column}`, message: `invalid JSON: ${e.message}` }));
  if (basename(dirname(dirname(file))) !== 'documents' || !file.endsWith('.json')) return undefined;
  const ct = [...project.schemas.contentTypes.values()].find((t) => t.pluralName === basename(dirname(file)));
  const body = JSON.parse(text) as unknown;
  if (!ct || !isObject(body)) return undefined;
  const slots: Array<[string, unknown]> = ct.localized
    ? isObject(body.locales)
      ? Object.entries(body.locales).map(([code, slot]) => [`locales.${code}.`, slot])
      : []
    : [['', body]];
  const known = new Set([...storedAttributes(ct), ...TIMESTAMPS]);
  const problems: FileProblem[] = [];
  for (const [prefix, slot] of slots) {
    if (!isObject(slot)) continue;
    for (const status of ['draft', 'published'] as const) {
      const version = slot[status];
      if (!isObject(version)) continue;
      const data: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(version)) {
        if (!known.has(k))
          problems.push({ path: `${prefix}${status}.${k}`, message: `is not an attribute of ${ct.uid}` });
        else if (!TIMESTAMPS.includes(k) && v !== null && v !== undefined) data[k] = v;
      }
      problems.push(...checkValues(ct, data, `${prefix}${status}`, status));
    }
  }
  return problems.length ? problems : undefined;
}
