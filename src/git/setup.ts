import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gitOk, runGit } from './run.js';

/**
 * `folio git setup`: the merge driver for document files, registered in the clone's `.git/config`
 * (`merge.folio.*`, per clone: git never copies a config) and named for `content/documents/**\/*.json` in
 * the project's `.gitattributes` (committed, so every clone sends those files to the driver once set up).
 */

/** The `.gitattributes` line that sends document files to the driver, relative to the project folder. */
export const ATTRIBUTES_LINE = 'content/documents/**/*.json merge=folio';
const PATTERN = 'content/documents/**/*.json';

/** This package's `bin/folio` (next to `dist/`, as `src/` is in a checkout of Folio). */
const BIN = resolve(fileURLToPath(import.meta.url), '..', '..', '..', 'bin', 'folio');

/** A word quoted for the POSIX shell git runs a driver's command line with. */
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * The driver's command line: this Node and this Folio by absolute path (a GUI client's PATH may hold
 * neither), with git's placeholders (it quotes `%P` itself).
 */
export function driverCommand(): string {
  return `${shellQuote(process.execPath)} ${shellQuote(BIN)} merge-file %O %A %B %P --marker-size %L`;
}

/**
 * The command that sets git up, as this process's user runs Folio: `npx folio git setup` under an npm script or npx
 * that runs Folio (`npm start` in Folio's checkout, where `folio` is on no PATH), else `folio git setup`.
 */
export function setupCommand(env: NodeJS.ProcessEnv = process.env): string {
  return env.npm_lifecycle_event && /\bfolio\b/.test(env.npm_lifecycle_script ?? '')
    ? 'npx folio git setup'
    : 'folio git setup';
}

/** The top folder of the git work tree `dir` is in, undefined when it is in none (or git is missing). */
export async function gitTopLevel(dir: string): Promise<string | undefined> {
  const r = await runGit(dir, ['rev-parse', '--show-toplevel']);
  return r.code === 0 ? r.stdout.trim() : undefined;
}

/** Whether `dir` or a folder above it holds `.git`: a cheap test before asking git. */
export function inGitCheckout(dir: string): boolean {
  for (let d = resolve(dir); ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return true;
    if (dirname(d) === d) return false;
  }
}

export interface SetupResult {
  repository: string;
  driver: string;
  gitattributes: string;
  /** What this run changed (nothing when it was set up already). */
  changed: { config: boolean; attributes: boolean };
}

/** Sets the driver up in the clone `projectRoot` is in; idempotent. Throws when it is in no git work tree. */
export async function setupGit(projectRoot: string): Promise<SetupResult> {
  const repository = await gitTopLevel(projectRoot);
  if (!repository)
    throw new Error(`${projectRoot} is not inside a git repository: run "git init" there (or "folio init") first`);
  const driver = driverCommand();
  const current = await runGit(projectRoot, ['config', '--local', '--get', 'merge.folio.driver']);
  const name = 'Folio: document files merged per locale, version and field';
  const config = current.code !== 0 || current.stdout.trim() !== driver;
  if (config) {
    await gitOk(projectRoot, ['config', '--local', 'merge.folio.name', name]);
    await gitOk(projectRoot, ['config', '--local', 'merge.folio.driver', driver]);
  }
  const gitattributes = join(projectRoot, '.gitattributes');
  const text = existsSync(gitattributes) ? readFileSync(gitattributes, 'utf8') : '';
  const attributes = !text.split(/\r?\n/).some((l) => l.trim().split(/\s+/).join(' ') === ATTRIBUTES_LINE);
  if (attributes) {
    const comment = '# Document files merge per field with "folio merge-file" (run "folio git setup" in each clone)';
    writeFileSync(gitattributes, `${text}${text && !text.endsWith('\n') ? '\n' : ''}${comment}\n${ATTRIBUTES_LINE}\n`);
  }
  return { repository, driver, gitattributes, changed: { config, attributes } };
}

/**
 * Why the merge driver would not run in this clone (a sentence saying what to do), or undefined when it
 * would, or when the project is in no git checkout. For `folio serve` and `folio validate` to say once.
 */
export async function driverProblem(projectRoot: string): Promise<string | undefined> {
  if (!inGitCheckout(projectRoot)) return undefined;
  const [config, attr] = await Promise.all([
    runGit(projectRoot, ['config', '--get', 'merge.folio.driver']),
    runGit(projectRoot, ['check-attr', 'merge', '--', `${PATTERN.replace('**/*', 'x/x')}`]),
  ]);
  if (config.code > 1 || attr.code !== 0) return undefined; // not a work tree after all, or no git
  const fix = `run "${setupCommand()}" so that git merges document files per field`;
  if (config.code !== 0 || !config.stdout.trim()) return `this clone has no Folio merge driver: ${fix}`;
  const missing = [...config.stdout.matchAll(/'([^']+)'/g)].map((m) => m[1]).find((p) => !existsSync(p));
  if (missing) return `the Folio merge driver of this clone names ${missing}, which is gone: ${fix}`;
  if (!/: merge: folio\s*$/.test(attr.stdout))
    return `.gitattributes does not send ${PATTERN} to the Folio merge driver: ${fix}, and commit .gitattributes`;
  return undefined;
}
