import type { Command } from 'commander';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { loadSchemas } from '../../schema/registry.js';
import { loadProject, type GlobalOptions } from '../context.js';
import { CliError, printJson } from '../output.js';
import { refuseWithLoadProblems, replaceRaw, writeRaw } from '../folio-json.js';
import { startProgress, withProgress } from '../progress.js';

export function registerTransfer(program: Command, globals: () => GlobalOptions) {
  program
    .command('export')
    .description('write the API as static JSON files for static hosting')
    .option('--out <dir>', 'output folder', 'export')
    .addHelpText(
      'after',
      `
Layout (published content, populated one level as a full-access client reads it, but the inverse side of a
relation, e.g. an author's articles: those are in the files of the side that holds the link):
  <out>/api/<plural>/index.json              page 1 of the list (default locale, default page size)
  <out>/api/<plural>/page/<n>.json           every page
  <out>/api/<plural>/<documentId>.json       every document
  <out>/api/<plural>/<locale>/…              the same per other locale (localized types)
  <out>/api/<singular>.json                  single types (and <singular>.<locale>.json)
Example:
  folio export --out public && npx serve public`,
    )
    .action(async (o: { out: string }) => {
      const opts = globals();
      const project = await loadProject(opts);
      const out = resolve(o.out);
      const { exportStatic } = await import('../../export/static-export.js');
      const files = await withProgress(`exporting to ${o.out}`, opts, (bar) => exportStatic(project, out, bar));
      if (opts.json) printJson({ out, files });
      else if (!opts.quiet) process.stderr.write(`exported ${files} files to ${out}\n`);
    });

  const imp = program.command('import').description('bring a project in from another tool');
  imp
    .command('strapi [strapiProject]')
    .description(
      'copy a running Strapi 5 (--url, --token: model, locales, media, every document) into content/, ' +
        "or a Strapi project folder's schemas",
    )
    .option('--url <url>', 'a running Strapi 5, e.g. http://localhost:1337')
    .option('--token <token>', 'a full-access API token of it (default: $STRAPI_TOKEN)')
    .option('--force', 'from a folder: overwrite schemas that already exist')
    .addHelpText(
      'after',
      `
Examples:
  folio import strapi --url http://localhost:1337 --token <full-access token>
  folio import strapi ../my-strapi-app          (schemas only, from the project's files)
Running it again updates what it copied (documentIds are kept): nothing is duplicated.`,
    )
    .action(async (dir: string | undefined, o: { force?: boolean; url?: string; token?: string }) => {
      const opts = globals();
      if (o.url !== undefined) return importOverRest(opts, o.url, o.token ?? process.env.STRAPI_TOKEN);
      if (dir === undefined)
        throw new CliError('Name a running Strapi with --url and --token, or a Strapi project folder', 2);
      const project = await loadProject({ ...opts, quiet: true });
      const src = resolve(dir, 'src');
      if (!existsSync(join(src, 'api')) && !existsSync(join(src, 'components')))
        throw new CliError(`${dir} does not look like a Strapi project (no src/api or src/components)`);
      const isDir = (p: string) => {
        try {
          return statSync(p).isDirectory();
        } catch {
          return false;
        }
      };
      let types = 0,
        components = 0;
      const skipped: string[] = [];
      for (const api of isDir(join(src, 'api')) ? readdirSync(join(src, 'api')) : []) {
        const ctDir = join(src, 'api', api, 'content-types');
        for (const name of isDir(ctDir) ? readdirSync(ctDir) : []) {
          const file = join(ctDir, name, 'schema.json');
          if (!existsSync(file)) continue;
          const schema = JSON.parse(readFileSync(file, 'utf8')) as { info?: { singularName?: string } };
          const singular = schema.info?.singularName ?? name;
          const target = join(project.contentDir, 'types', `${singular}.json`);
          if (existsSync(target) && !o.force) {
            skipped.push(target);
            continue;
          }
          mkdirSync(join(project.contentDir, 'types'), { recursive: true });
          cpSync(file, target);
          types++;
        }
      }
      const compDir = join(src, 'components');
      for (const category of isDir(compDir) ? readdirSync(compDir) : []) {
        for (const f of isDir(join(compDir, category))
          ? readdirSync(join(compDir, category)).filter((x) => x.endsWith('.json'))
          : []) {
          const target = join(project.contentDir, 'components', category, f);
          if (existsSync(target) && !o.force) {
            skipped.push(target);
            continue;
          }
          mkdirSync(join(project.contentDir, 'components', category), { recursive: true });
          cpSync(join(compDir, category, f), target);
          components++;
        }
      }
      const problems = loadSchemas(project.contentDir).problems;
      if (opts.json) printJson({ contentTypes: types, components, skipped, problems });
      else if (!opts.quiet) {
        process.stdout.write(`imported ${types} content-type(s) and ${components} component(s)\n`);
        if (skipped.length)
          process.stdout.write(`skipped ${skipped.length} existing schema(s) (use --force to overwrite)\n`);
        for (const p of problems)
          process.stderr.write(`${p.file}: ${p.attribute ? `${p.attribute}: ` : ''}${p.message}\n`);
      }
      if (problems.length) process.exitCode = 1;
    });
}

/** `folio import strapi --url`: the REST import (import/strapi-rest.ts), with progress and a summary. */
async function importOverRest(opts: GlobalOptions, url: string, token: string | undefined) {
  if (!token) throw new CliError('Pass --token <full-access API token> (or set STRAPI_TOKEN)', 2);
  try {
    new URL(url);
  } catch {
    throw new CliError(`--url must be a URL, e.g. http://localhost:1337 (got "${url}")`, 2);
  }
  const { importFromStrapi, ImportError } = await import('../../import/strapi-rest.js');
  const root = resolve(opts.dir ?? process.cwd());
  const contentDir = join(root, 'content');
  if (!existsSync(contentDir)) throw new CliError(`${root} has no content/ folder: run "folio init" there first`);
  let bar = startProgress('importing', opts);
  const openMedia = async () => {
    const project = await loadProject({ ...opts, quiet: true });
    const { UploadService, localLibrary } = await import('../../upload/service.js');
    const { spoolToTemp } = await import('../../upload/spool.js');
    const lib = localLibrary(project);
    if (!lib) return undefined;
    const service = new UploadService(lib, project.documents);
    return {
      has: (documentId: string) => lib.resolve(documentId) !== undefined,
      async add(f: { body: Readable; name: string; info: Record<string, unknown>; keep: Record<string, string> }) {
        const spooled = await spoolToTemp(f.body, lib.uploadsDir, lib.config.sizeLimit);
        await service.upload([{ ...spooled, filename: f.name, declaredType: '' }], [f.info], undefined, [f.keep]);
      },
    };
  };
  let summary;
  try {
    summary = await importFromStrapi(
      contentDir,
      { url, token },
      openMedia,
      {
        step(label, total) {
          bar.stop();
          bar = startProgress(label, opts);
          if (total !== undefined) bar.total(total);
        },
        tick: () => bar.tick(),
      },
      async (settings, previousDefault) => {
        if (previousDefault === settings.defaultLocale) return writeRaw(contentDir, settings);
        // As `folio locales default` does: links stored in the project keep naming the same versions.
        const project = await loadProject({ ...opts, quiet: true });
        refuseWithLoadProblems(project, `make ${String(settings.defaultLocale)} the default locale`);
        await project.documents.changeLocales({ defaultLocale: String(settings.defaultLocale) }, () =>
          replaceRaw(contentDir, settings),
        );
      },
    );
  } catch (err) {
    if (err instanceof ImportError) throw new CliError(err.message);
    throw err;
  } finally {
    bar.stop();
  }
  if (opts.json) return printJson(summary);
  if (opts.quiet) return;
  const docs = Object.values(summary.documents).reduce((a, b) => a + b, 0);
  const { failed: missed } = summary.media;
  const failed = missed.length ? `, ${missed.length} failed (${missed.join(', ')})` : '';
  process.stdout.write(
    `imported from ${url}:\n` +
      `  ${summary.contentTypes.length} content-type(s), ${summary.components.length} component(s), ` +
      `locales ${summary.locales.join(', ')}\n` +
      `  ${docs} document(s) (${summary.versions} versions): ` +
      `${Object.entries(summary.documents)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')}\n` +
      `  media: ${summary.media.added} added, ${summary.media.kept} already there${failed}\n`,
  );
  if (summary.notImported.length)
    process.stdout.write(
      `  not readable over REST, so left empty: ${summary.notImported.join(', ')} (private fields and passwords)\n`,
    );
  process.stdout.write('Check the result with "folio validate".\n');
}
