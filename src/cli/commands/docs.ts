import type { Command } from 'commander';
import { FolioError } from '../../errors.js';
import type { Project } from '../../project.js';
import type { ContentType } from '../../schema/types.js';
import { isScalar } from '../../schema/types.js';
import { parseQueryString } from '../../query/parse-qs.js';
import { Reader } from '../../query/reader.js';
import type { Version } from '../../documents/model.js';
import { loadProject, readStdin, type GlobalOptions } from '../context.js';
import { CliError, dim, printJson, printResult, printTable } from '../output.js';
import { pageSummary, wholeNumber } from '../pages.js';
import { unknownType } from '../suggest.js';
import { promptData } from './docs-prompt.js';

interface ReadOptions extends GlobalOptions {
  locale?: string;
  status?: string;
  filter?: string[];
  sort?: string;
  fields?: string;
  populate?: string;
  page?: string;
  pageSize?: string;
  query?: string;
}
interface WriteOptions extends GlobalOptions {
  data?: string;
  locale?: string;
  status?: string;
  populate?: string;
}

const collect = (v: string, prev: string[] = []) => [...prev, v];

/** `title[$containsi]=x` (or `title=x`) becomes `filters[title][$containsi]=x`. */
function filterParam(f: string): string {
  const cut = f.search(/[[=]/);
  if (cut <= 0) throw new CliError(`Invalid --filter "${f}": write it as field=value or field[$operator]=value`);
  return `filters[${f.slice(0, cut)}]${f.slice(cut)}`;
}

/** Builds the same query object an HTTP request would carry, from the CLI's flags. */
function queryOf(o: ReadOptions): Record<string, unknown> {
  const parts: string[] = [];
  if (o.query) parts.push(o.query.replace(/^\?/, ''));
  for (const f of o.filter ?? []) parts.push(filterParam(f));
  const q = parseQueryString(parts.join('&'));
  if (o.locale) q.locale = o.locale;
  if (o.status) q.status = o.status;
  if (o.sort) q.sort = o.sort;
  if (o.fields) q.fields = o.fields;
  if (o.populate) q.populate = o.populate;
  if (o.page || o.pageSize) {
    q.pagination = {
      ...(q.pagination as object | undefined),
      ...(o.page ? { page: o.page } : {}),
      ...(o.pageSize ? { pageSize: o.pageSize } : {}),
    };
  }
  return q;
}

function typeOf(project: Project, name: string): ContentType {
  const ct = project.schemas.find(name);
  if (!ct) throw new CliError(unknownType(name, project.schemas.contentTypes.values()));
  return ct;
}

/** --locale on a type without locales: it would be ignored, and the document written or read for every locale. */
function notLocalized(project: Project, ct: ContentType, locale: string) {
  const codes = project.config.locales.map((l) => l.code);
  const unknown = codes.includes(locale) ? '' : `, and ${locale} is not a locale of this project (${codes.join(', ')})`;
  const why = `${ct.pluralName} are not localized (one version for every locale)`;
  return `--locale ${locale}: ${why}${unknown}; leave it out`;
}

/** The documentId a command names: the one given, or a single type's document when none is. */
const addressed = (project: Project, ct: ContentType, documentId: string | undefined) =>
  documentId ?? (ct.kind === 'singleType' ? project.documents.singleDocument(ct)?.documentId : undefined);

/** The attribute shown as a document's label in tables: the first plain string attribute. */
function labelOf(ct: ContentType, row: Record<string, unknown>): string {
  for (const [name, a] of Object.entries(ct.attributes)) {
    if (
      isScalar(a) &&
      ['string', 'text', 'uid', 'email'].includes(a.type) &&
      !a.private &&
      typeof row[name] === 'string'
    )
      return row[name] as string;
  }
  return '';
}

async function parseData(o: WriteOptions, ct?: ContentType): Promise<Record<string, unknown>> {
  if (o.data === undefined && ct && process.stdin.isTTY && process.stdout.isTTY && !o.json) return promptData(ct);
  const fromStdin = o.data === undefined || o.data === '-';
  const text = fromStdin ? await readStdin() : o.data!;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const { describeJsonError } = await import('../../store/json-syntax.js');
    const where = describeJsonError(text) ?? (err as Error).message;
    throw new CliError(`${fromStdin ? 'The JSON on standard input' : '--data'} is not valid JSON (${where})`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new CliError('--data must be a JSON object of attributes, e.g. \'{"title":"Hello"}\'');
  // Accept both `{...attributes}` and the REST body `{ "data": {...} }`.
  const v = value as Record<string, unknown>;
  return Object.keys(v).length === 1 && v.data && typeof v.data === 'object' && !Array.isArray(v.data)
    ? (v.data as Record<string, unknown>)
    : v;
}

/** Runs a write, saying which field a refused relation or media reference is in (messages.ts). */
async function explained<T>(
  project: Project,
  ct: ContentType,
  data: Record<string, unknown>,
  { locale, json }: { locale?: string; json?: boolean },
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (err) {
    const { explainWriteError } = await import('../messages.js');
    throw explainWriteError(err, project, ct, data, locale, json) ?? err;
  }
}

/** Why `docs get` found nothing: no such document, or not in that status or locale (and what to pass). */
function missingVersion(project: Project, ct: ContentType, id: string, status: string, locale: string | undefined) {
  const doc = project.documents.index.get(ct.uid, id);
  if (!doc) return `No ${ct.singularName} with documentId "${id}" (see "folio docs list ${ct.pluralName}")`;
  const slot = locale ? doc.slots.get(locale) : [...doc.slots.values()][0];
  if (ct.localized && locale && !slot)
    return (
      `${ct.singularName} ${id} has no ${locale} version ` +
      `(it has: ${[...doc.slots.keys()].join(', ')}); pass --locale`
    );
  if (status === 'published' && slot?.draft)
    return (
      `${ct.singularName} ${id} has no published version${locale ? ` in ${locale}` : ''}, only a draft: ` +
      `pass --status draft to read it, or publish it with "folio docs publish ${ct.pluralName} ${id}"`
    );
  return `${ct.singularName} ${id} has no ${status} version${locale ? ` in ${locale}` : ''}`;
}

/** A written version as the REST API answers the write, with the command's --populate. */
const shapeWritten = (project: Project, ct: ContentType, v: Version, o: WriteOptions) =>
  new Reader(project).written(ct, v, o.populate ? { populate: o.populate } : {});

function writeStatus(o: WriteOptions) {
  if (o.status !== undefined && o.status !== 'draft' && o.status !== 'published')
    throw new CliError(`--status must be "draft" or "published"`);
  return o.status === 'draft' ? ('draft' as const) : undefined;
}

export function registerDocs(program: Command, globals: () => GlobalOptions) {
  const docs = program.command('docs').description('list, read and write documents (the same rules as the REST API)');
  /** What every command starts with: its options over the global ones, the project, the content-type it names. */
  const opened = async <O extends object>(type: string, o: O) => {
    const opts = { ...globals(), ...o };
    const project = await loadProject(opts);
    const ct = typeOf(project, type);
    const { locale } = opts as { locale?: string };
    if (locale !== undefined && locale !== '*' && !ct.localized) throw new CliError(notLocalized(project, ct, locale));
    return { opts, project, ct };
  };

  const readFlags = (c: Command) =>
    c
      .option('--locale <code>', 'locale to read (localized types; "*" for all on list)')
      .option('--status <status>', 'draft or published (default published)')
      .option('--populate <list>', 'relations, components, media to include: "*" or a comma list')
      .option('--fields <list>', 'comma list of fields to return');

  readFlags(docs.command('list <type>').description('list documents of a content-type'))
    .option('--filter <expr>', 'filter, e.g. "title[$containsi]=hello" (repeatable)', collect)
    .option('--sort <sort>', 'e.g. "title:asc" or "views:desc,title"')
    .option('--page <n>', 'page number', wholeNumber(1))
    .option('--page-size <n>', 'page size (max from folio.json)', wholeNumber(1))
    .option('--query <qs>', 'a raw Strapi query string, e.g. "filters[views][$gt]=10&sort=title"')
    .addHelpText(
      'after',
      `
Examples:
  folio docs list articles
  folio docs list articles --filter 'title[$containsi]=node' --sort views:desc --json
  folio docs list articles --locale fr --status draft --populate author`,
    )
    .action(async (type: string, o: ReadOptions) => {
      const { opts, project, ct } = await opened(type, o);
      const { query, ...result } = new Reader(project).find(ct, queryOf(opts));
      if (opts.json) return printJson(result);
      const rows = result.data.map((d) => {
        const row = [String(d.documentId)];
        // From the query, not the row: --fields may leave locale and publishedAt out of it.
        if (ct.localized) row.push(String(d.locale ?? query.locale ?? ''));
        if (ct.draftAndPublish) row.push(query.status);
        row.push(labelOf(ct, d), String(d.updatedAt ?? ''));
        return row;
      });
      const headers = [
        'documentId',
        ...(ct.localized ? ['locale'] : []),
        ...(ct.draftAndPublish ? ['status'] : []),
        'label',
        'updatedAt',
      ];
      if (rows.length) printTable(headers, rows);
      const summary = pageSummary(result.meta.pagination as Record<string, number>, rows.length, ct.pluralName);
      if (!opts.quiet) process.stdout.write(rows.length ? dim(`${summary}\n`) : `${summary}\n`);
    });

  readFlags(docs.command('get <type> [documentId]').description('show one document (single types need no documentId)'))
    .addHelpText(
      'after',
      `
Examples:
  folio docs get articles x1vu42k5cw5c5fxhgpjekt1q --populate '*'
  folio docs get global`,
    )
    .action(async (type: string, documentId: string | undefined, o: ReadOptions) => {
      const { opts, project, ct } = await opened(type, o);
      const id = addressed(project, ct, documentId);
      if (!id)
        throw new CliError(
          ct.kind === 'singleType'
            ? `${ct.singularName} has no content yet`
            : 'A documentId is required for a collection type',
        );
      const read = new Reader(project).prepare(ct, queryOf(opts), 'findOne');
      const { query } = read;
      const data = read.one(id);
      if (!data) throw new CliError(missingVersion(project, ct, id, query.status, query.locale ?? undefined));
      printJson(opts.json ? { data, meta: {} } : data);
    });

  const writeFlags = (c: Command) =>
    c
      .option('--data <json>', 'attributes as JSON ("-" or omitted: read standard input)')
      .option('--locale <code>', 'locale to write (localized types)')
      .option('--status <status>', '"draft" keeps it a draft; default publishes')
      .option('--populate <list>', 'what to include in the printed result');

  writeFlags(docs.command('create <type>').description('create a document'))
    .addHelpText(
      'after',
      `
Examples:
  folio docs create articles --data '{"title":"Hello","author":"<authorDocumentId>"}'
  echo '{"name":"Tech"}' | folio docs create categories
  folio docs create articles --status draft --data '{"title":"WIP"}'`,
    )
    .action(async (type: string, o: WriteOptions) => {
      const { opts, project, ct } = await opened(type, o);
      const data = await parseData(opts, ct);
      const v = await explained(project, ct, data, opts, () =>
        ct.kind === 'singleType' && project.documents.singleDocument(ct)
          ? project.documents.update(ct.uid, project.documents.singleDocument(ct)!.documentId, data, {
              status: writeStatus(opts),
              locale: opts.locale,
            })
          : project.documents.create(ct.uid, data, { status: writeStatus(opts), locale: opts.locale }),
      );
      const shaped = shapeWritten(project, ct, v!, opts);
      if (opts.json) return printJson({ data: shaped, meta: {} });
      // With --quiet only the new documentId, what a script goes on with.
      if (opts.quiet) return void process.stdout.write(`${v!.documentId}\n`);
      process.stdout.write(
        `created ${ct.singularName} ${v!.documentId}${v!.locale ? ` (${v!.locale})` : ''}` +
          `${v!.status === 'draft' ? ' as a draft' : ''}\n`,
      );
    });

  writeFlags(
    docs.command('update <type> [documentId]').description('update a document (publishes unless --status draft)'),
  )
    .addHelpText(
      'after',
      `
Examples:
  folio docs update articles <documentId> --data '{"views":10}'
  folio docs update articles <documentId> --locale fr --data '{"title":"Bonjour"}'`,
    )
    .action(async (type: string, documentId: string | undefined, o: WriteOptions) => {
      const { opts, project, ct } = await opened(type, o);
      const id = addressed(project, ct, documentId);
      const data = await parseData(opts);
      // An empty single type: its first update creates it, as PUT /api/<singular> does.
      const v = await explained(project, ct, data, opts, () =>
        id
          ? project.documents.update(ct.uid, id, data, { status: writeStatus(opts), locale: opts.locale })
          : ct.kind === 'singleType'
            ? project.documents.create(ct.uid, data, { status: writeStatus(opts), locale: opts.locale })
            : Promise.reject(new CliError(`A documentId is required (see "folio docs list ${ct.pluralName}")`)),
      );
      if (!v) throw new CliError(`No ${ct.singularName} with documentId ${id}`);
      const shaped = shapeWritten(project, ct, v, opts);
      printResult(
        opts,
        { data: shaped, meta: {} },
        `updated ${ct.singularName} ${v.documentId}${v.locale ? ` (${v.locale})` : ''}` +
          `${v.status === 'draft' ? ' (draft only)' : ''}\n`,
      );
    });

  docs
    .command('delete <type> [documentId]')
    .description('delete a document in one locale (--locale "*": all)')
    .option('--locale <code>', 'locale to delete (default: the default locale; "*" for all)')
    .action(async (type: string, documentId: string | undefined, o: GlobalOptions & { locale?: string }) => {
      const { opts, project, ct } = await opened(type, o);
      const id = addressed(project, ct, documentId);
      if (!id) throw new CliError('A documentId is required');
      const n = await project.documents.delete(ct.uid, id, { locale: opts.locale });
      if (!n)
        throw new CliError(`No ${ct.singularName} ${id}${opts.locale ? ` in locale ${opts.locale}` : ''} to delete`);
      printResult(opts, { deleted: n }, `deleted ${ct.singularName} ${id} (${n} version${n === 1 ? '' : 's'})\n`);
    });

  for (const [name, describe] of [
    ['publish', 'publish the draft of a document'],
    ['unpublish', 'remove the published version, keeping the draft'],
    ['discard-draft', 'replace the draft with the published version'],
  ] as const) {
    docs
      .command(`${name} <type> [documentId]`)
      .description(describe)
      .option('--locale <code>', 'locale (localized types)')
      .action(async (type: string, documentId: string | undefined, o: GlobalOptions & { locale?: string }) => {
        const { opts, project, ct } = await opened(type, o);
        const id = addressed(project, ct, documentId);
        if (!id) throw new CliError('A documentId is required');
        const fn = name === 'publish' ? 'publish' : name === 'unpublish' ? 'unpublish' : 'discardDraft';
        let v: Version | undefined;
        try {
          v = await project.documents[fn](ct.uid, id, { locale: opts.locale });
        } catch (err) {
          if (err instanceof FolioError && err.status === 404)
            throw new CliError(`No ${ct.singularName} ${id}${opts.locale ? ` in locale ${opts.locale}` : ''}`);
          throw err;
        }
        if (!v)
          throw new CliError(
            `Nothing to ${name}: ${name === 'publish' ? 'there is no draft' : 'there is no published version'}`,
          );
        if (opts.json) return printJson({ data: shapeWritten(project, ct, v, {}), meta: {} });
        if (!opts.quiet)
          process.stdout.write(
            `${name === 'discard-draft' ? 'discarded the draft of' : `${name}ed`} ${ct.singularName} ${id}\n`,
          );
      });
  }
}
