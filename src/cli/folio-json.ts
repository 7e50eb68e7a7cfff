import { join } from 'node:path';
import { loadConfig } from '../config.js';
import type { Project } from '../project.js';
import { CliError } from './output.js';
import { writeFileAtomic } from '../store/atomic.js';
import { serialize } from '../store/serialize.js';
import { readSmallFile } from '../store/read-file.js';

// The project's settings file as the commands that change it (locales, import) read and write it.

/** Reads folio.json as written (so other keys and their order are kept), or an empty object. */
export function readRaw(contentDir: string): Record<string, unknown> {
  try {
    return JSON.parse(readSmallFile(join(contentDir, 'folio.json'), contentDir)) as Record<string, unknown>;
  } catch {
    return {};
  }
}

export async function writeRaw(contentDir: string, raw: Record<string, unknown>) {
  const file = join(contentDir, 'folio.json');
  await writeFileAtomic(file, serialize(raw));
  loadConfig(contentDir); // fails loudly if the result is not a valid config
}

/** Writes folio.json as `writeRaw` does; answers how to put back the text it replaced. */
export async function replaceRaw(contentDir: string, raw: Record<string, unknown>): Promise<() => Promise<void>> {
  const file = join(contentDir, 'folio.json');
  const before = readSmallFile(file, contentDir);
  try {
    await writeRaw(contentDir, raw);
  } catch (err) {
    await writeFileAtomic(file, before);
    throw err;
  }
  return () => writeFileAtomic(file, before);
}

/**
 * Refuses a change of the locales (what bare links name, or a locale's versions removed) while the project has
 * files it could not load: the documents in them would keep links naming other versions, or versions of a locale
 * that is gone.
 */
export function refuseWithLoadProblems(project: Project, change: string) {
  const problems = project.report.problems;
  if (!problems.length) return;
  const named = problems.slice(0, 3).map((p) => `${p.file}: ${p.message}`);
  if (problems.length > 3) named.push(`… and ${problems.length - 3} more`);
  throw new CliError(
    `Cannot ${change} while ${problems.length} file(s) cannot be loaded (${named.join('; ')}): ` +
      'the documents in them would not be rewritten. Fix them ("folio validate" lists them) and run again.',
  );
}
