import type { Command } from 'commander';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { FolioError } from '../../errors.js';
import type { Project } from '../../project.js';
import { fileObject } from '../../documents/media.js';
import type { FileRecord, LocalMediaLibrary } from '../../upload/library.js';
import { UploadService, localLibrary, parseFileInfo } from '../../upload/service.js';
import { removeTemps, spoolToTemp, type IncomingFile } from '../../upload/spool.js';
import { loadProject, type GlobalOptions } from '../context.js';
import { CliError, dim, printJson, printTable } from '../output.js';

interface AddOptions extends GlobalOptions {
  alt?: string;
  caption?: string;
  name?: string;
}

function libraryOf(project: Project): LocalMediaLibrary {
  const lib = localLibrary(project);
  if (!lib) throw new CliError('This project has no local media library');
  return lib;
}

const kb = (size: number) => `${size} KB`;

export function registerMedia(program: Command, globals: () => GlobalOptions) {
  const media = program
    .command('media')
    .description('the media library: files under content/uploads/ (the upload plugin)');

  media
    .command('add <file...>')
    .description('add files to the media library, as POST /api/upload does')
    .option('--alt <text>', 'alternative text (every file)')
    .option('--caption <text>', 'caption (every file)')
    .option('--name <name>', 'name to show instead of the file name (one file only)')
    .addHelpText(
      'after',
      `
Examples:
  folio media add ./photos/cover.jpg --alt "A red bicycle" --caption "Amsterdam, 2024"
  folio media add ./docs/*.pdf --json`,
    )
    .action(async (paths: string[], o: AddOptions) => {
      const opts = { ...globals(), ...o };
      if (opts.name !== undefined && paths.length > 1)
        throw new CliError('--name applies to one file; add the files one by one to name each');
      const project = await loadProject(opts);
      const lib = libraryOf(project);
      const service = new UploadService(lib, project.documents);
      const info = parseFileInfo(
        {
          ...(opts.name !== undefined ? { name: opts.name } : {}),
          ...(opts.alt !== undefined ? { alternativeText: opts.alt } : {}),
          ...(opts.caption !== undefined ? { caption: opts.caption } : {}),
        },
        'fileInfo',
      );
      const incoming: IncomingFile[] = [];
      try {
        for (const p of paths) {
          const full = resolve(p);
          const st = await stat(full).catch(() => undefined);
          if (!st?.isFile()) throw new CliError(`${p}: no such file`);
          if (st.size > lib.config.sizeLimit)
            throw new CliError(
              `${p} is ${st.size} bytes: larger than the upload limit of ${lib.config.sizeLimit} bytes ` +
                '(upload.sizeLimit in folio.json)',
            );
          const spooled = await spoolToTemp(createReadStream(full), lib.uploadsDir, lib.config.sizeLimit).catch(
            (err: unknown) => {
              if (err instanceof FolioError && err.status === 413)
                throw new CliError(`${p} is larger than the upload limit of ${lib.config.sizeLimit} bytes`);
              throw err;
            },
          );
          incoming.push({ ...spooled, filename: basename(full), declaredType: '' });
        }
        let stored: FileRecord[];
        try {
          stored = await service.upload(
            incoming,
            incoming.map(() => info),
          );
        } catch (err) {
          if (err instanceof FolioError)
            throw new CliError(`${err.message}${incoming.length > 1 ? ' (nothing was added)' : ''}`);
          throw err;
        }
        if (opts.json) return printJson(stored.map((r) => fileObject(r)));
        // With --quiet only each new file's id, what a document's media field takes.
        if (opts.quiet) return void process.stdout.write(stored.map((r) => `${r.id}\n`).join(''));
        for (const r of stored) {
          const dims = r.width && r.height ? `, ${r.width}x${r.height}` : '';
          const formats = r.formats ? `, formats: ${Object.keys(r.formats).join(' ')}` : '';
          process.stdout.write(`added ${r.id} ${r.documentId} ${r.url} (${r.mime}, ${kb(r.size)}${dims}${formats})\n`);
        }
      } finally {
        await removeTemps(incoming.map((f) => f.tmpPath));
      }
    });

  media
    .command('list')
    .description('list the files of the media library')
    .addHelpText(
      'after',
      `
Examples:
  folio media list
  folio media list --json`,
    )
    .action(async (o: GlobalOptions) => {
      const opts = { ...globals(), ...o };
      const project = await loadProject(opts);
      const files = libraryOf(project).list();
      if (opts.json) return printJson(files.map((r) => fileObject(r)));
      printTable(
        ['id', 'documentId', 'name', 'mime', 'size', 'url'],
        files.map((r) => [String(r.id), r.documentId, r.name, r.mime, kb(r.size), r.url]),
      );
      if (!opts.quiet) process.stdout.write(dim(`${files.length} file${files.length === 1 ? '' : 's'}\n`));
    });

  media
    .command('rm <file>')
    .description('delete a file (by id or documentId) and remove it from every document that used it')
    .addHelpText(
      'after',
      `
Examples:
  folio media rm 3
  folio media rm x04pt5awgprbx0ayplml5yrg`,
    )
    .action(async (ref: string, o: GlobalOptions) => {
      const opts = { ...globals(), ...o };
      const project = await loadProject(opts);
      const service = new UploadService(libraryOf(project), project.documents);
      const removed = await service.remove(/^\d+$/.test(ref) ? Number(ref) : ref);
      if (!removed) throw new CliError(`No file with id or documentId "${ref}". See "folio media list".`);
      if (opts.json) return printJson({ data: fileObject(removed.record), detached: removed.detached });
      if (opts.quiet) return;
      const r = removed.record;
      process.stdout.write(
        `removed ${r.id} ${r.documentId} ${r.name}` +
          (removed.detached ? ` (cleared from ${removed.detached} document${removed.detached === 1 ? '' : 's'})` : '') +
          '\n',
      );
    });
}
