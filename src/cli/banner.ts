import type { Project } from '../project.js';
import { dim, printJson } from './output.js';

/**
 * What `folio serve` prints once it listens: the links a browser opens without credentials (`/`, `/api`,
 * the documentation, each type the public role may read that has content), and the other routes by name.
 * `studioLines` (the owner's one-click Studio link) follow the Studio's. With --json, one JSON document with every
 * route instead.
 */
export async function printReady(
  project: Project,
  base: string,
  opts: { json?: boolean; quiet?: boolean },
  studioLines: string[] = [],
) {
  const [{ typeRoutes }, { loadPermissions }] = await Promise.all([
    import('../http/landing.js'),
    import('../auth/permissions.js'),
  ]);
  // Only links a browser opens without credentials: the others answer 403 until a token is sent.
  const publicActions = new Set(loadPermissions(project.contentDir).roles.public?.permissions ?? []);
  // A single type without published content answers 404 until it has some.
  const answers = (uid: string) => {
    const ct = project.schemas.contentTypes.get(uid)!;
    if (ct.kind !== 'singleType') return true;
    const doc = project.documents.singleDocument(ct);
    return doc !== undefined && project.documents.findVersion(ct, doc.documentId, 'published', undefined) !== undefined;
  };
  const routes = typeRoutes(project).map((t) => ({
    ...t,
    public: publicActions.has(`${t.uid}.find`) && answers(t.uid),
  }));
  if (opts.json) {
    printJson({
      url: base,
      studio: `${base}/admin`,
      contentDir: project.contentDir,
      documents: project.report.documents,
      contentTypes: routes.map((r) => ({ ...r, url: `${base}${r.route}` })),
    });
  } else {
    process.stdout.write(`Folio is serving ${project.contentDir}\n`);
    const fromSnapshot = project.report.fromSnapshot
      ? `, ${project.report.fromSnapshot} from the start-up snapshot`
      : '';
    process.stdout.write(
      `  ${base}/api  (${project.report.documents} documents, ${routes.length} content-types${fromSnapshot})\n`,
    );
    // The owner's sign-in link, if the server offers one: printed with --quiet too, since it is the way in.
    if (opts.quiet) for (const line of studioLines) process.stdout.write(line);
    if (!opts.quiet) {
      process.stdout.write(`  ${base}/admin  Folio Studio, the editor in the browser\n`);
      for (const line of studioLines) process.stdout.write(line);
      process.stdout.write(dim(`  ${base}/documentation  the OpenAPI reference\n`));
      for (const r of routes.filter((x) => x.public)) process.stdout.write(dim(`  ${base}${r.route}\n`));
      const closed = routes.filter((x) => !x.public).map((x) => x.route);
      if (closed.length)
        process.stdout.write(
          dim(`  ${closed.join(', ')}: no content yet, or need an API token ("folio tokens create")\n`),
        );
    }
  }
}
