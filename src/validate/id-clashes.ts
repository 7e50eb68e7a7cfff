import { join, relative } from 'node:path';
import type { Project } from '../project.js';
import type { Version } from '../documents/model.js';

export interface IdNotice {
  file: string;
  path: string;
  message: string;
}

/** Where a version's id is in its file, as `validate` names paths. */
const idPath = (v: Version) => `${v.locale ? `locales.${v.locale}.` : ''}${v.status}.id`;

/**
 * Versions whose file gives them an id that a version coming first has too (after a merge of branches
 * that both added documents), or no id: every process numbers them alike (see DocumentIndex.place), so
 * this is a notice, not a problem; `folio validate --fix` gives them fresh ids in their files.
 */
export function idClashNotices(project: Project): IdNotice[] {
  const notices: IdNotice[] = [];
  const index = project.documents.index;
  const fileOf = (plural: string, documentId: string) =>
    relative(project.root, join(project.contentDir, 'documents', plural, `${documentId}.json`));
  for (const ct of project.schemas.contentTypes.values()) {
    for (const { version, fileId } of index.renumberedVersions(ct.uid)) {
      const holder = fileId > 0 ? index.byId(ct.uid, fileId) : undefined;
      const why = holder
        ? `id ${fileId} is also used by ${fileOf(ct.pluralName, holder.documentId)} ${idPath(holder)}`
        : 'no usable id';
      notices.push({
        file: fileOf(ct.pluralName, version.documentId),
        path: idPath(version),
        message: `${why}: served as id ${version.id} until rewritten (folio validate --fix)`,
      });
    }
  }
  return notices;
}
