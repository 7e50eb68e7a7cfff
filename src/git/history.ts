import type { ServedProject } from '../http-kit/served-project.js';
import type { Attribute, ContentType } from '../schema/types.js';
import type { SchemaRegistry } from '../schema/registry.js';
import { DOCUMENT_ID, DRAFT, LOCALES, PUBLISHED, VERSION_HEAD, VERSION_TAIL } from '../documents/file-format.js';
import { restoreBody } from '../documents/restore.js';
import type { Version } from '../documents/model.js';
import type { Actor } from '../documents/write-record.js';
import { Repository } from './repository.js';

/** One commit of a document's file: who, when, and its message. */
export interface HistoryEntry {
  commit: string;
  author: { name: string; email: string };
  date: string;
  message: string;
}

/** A field that differs between a document at a commit and now (`null`: absent on that side). */
export interface FieldChange {
  path: string;
  then: unknown;
  now: unknown;
}

/** What the history needs of a project (the server's or the CLI's). */
type HistoryProject = Pick<ServedProject, 'root' | 'documents'>;

/** A commit id as the history takes it from a URL or the command line: hex only, so never an option or a range. */
export const COMMIT_ID = /^[0-9a-f]{7,64}$/i;

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const FIELDS = '%H%x1f%an%x1f%ae%x1f%aI%x1f%s';

/**
 * A document's history, from git: the commits of its file (newest first), the file as it was at one of them,
 * what differs from now field by field, and a restore of one locale to it (a write like any other).
 * Private and password fields are never shown, as the API never returns them.
 */
export class DocumentHistory {
  private constructor(
    private readonly repo: Repository,
    private readonly project: HistoryProject,
  ) {}

  /** The history of the project's repository; undefined when the project is in none. */
  static async open(project: HistoryProject): Promise<DocumentHistory | undefined> {
    const repo = await Repository.open(project.root);
    return repo && new DocumentHistory(repo, project);
  }

  private pathOf(ct: ContentType, documentId: string): string {
    const path = this.repo.pathOf(this.project.documents.store.fileOf(ct.pluralName, documentId));
    if (!path) throw new Error('the document file is outside the repository');
    return path;
  }

  /** The commits of the document's file, newest first (`start` skips as many). */
  async log(ct: ContentType, documentId: string, opts: { limit: number; start: number }): Promise<HistoryEntry[]> {
    const args = ['log', '-z', `--format=${FIELDS}`, `--max-count=${opts.limit}`, `--skip=${opts.start}`];
    const r = await this.repo.run([...args, '--', this.pathOf(ct, documentId)]);
    // A repository without commits has no history yet.
    if (r.code !== 0) return [];
    return r.stdout.split('\0').filter(Boolean).map(entryOf);
  }

  /** The commit `id` names and the document's file as it held then; undefined when either is not there. */
  async at(
    ct: ContentType,
    documentId: string,
    id: string,
  ): Promise<{ entry: HistoryEntry; body: Record<string, unknown> } | undefined> {
    if (!COMMIT_ID.test(id)) return undefined;
    const info = await this.repo.run(['log', '-1', '-z', `--format=${FIELDS}`, `${id}^{commit}`, '--']);
    if (info.code !== 0 || !info.stdout) return undefined;
    const entry = entryOf(info.stdout.split('\0')[0]);
    const blob = await this.repo.run(['cat-file', 'blob', `${entry.commit}:${this.pathOf(ct, documentId)}`]);
    if (blob.code !== 0) return undefined;
    try {
      const body = JSON.parse(blob.stdout) as unknown;
      return isObject(body) ? { entry, body } : undefined;
    } catch {
      return undefined;
    }
  }

  /** The document's file as it is now (undefined: deleted, or unreadable: see `now`). */
  current(ct: ContentType, documentId: string): Record<string, unknown> | undefined {
    return this.now(ct, documentId).body;
  }

  /** Whether the document's file is gone now, and its body when it can be read (not while it holds a conflict). */
  now(ct: ContentType, documentId: string): { gone: boolean; body?: Record<string, unknown> } {
    try {
      const raw = this.project.documents.store.readDocument(ct.pluralName, documentId);
      return raw ? { gone: false, body: raw.body } : { gone: true };
    } catch {
      return { gone: false };
    }
  }

  /** Restores one locale of the document (the draft, on a type with drafts) to what the file held at `id`. */
  async restore(
    ct: ContentType,
    documentId: string,
    id: string,
    opts: { locale?: string; actor?: Actor },
  ): Promise<{ version: Version | undefined; entry: HistoryEntry } | undefined> {
    const then = await this.at(ct, documentId, id);
    if (!then) return undefined;
    const docs = this.project.documents;
    const locale = ct.localized ? (opts.locale ?? docs.config.defaultLocale) : null;
    const data = restoreBody(docs.schemas, docs.index, docs.media, ct, then.body, locale);
    const version = await docs.update(ct.uid, documentId, data, {
      locale: locale ?? undefined,
      status: ct.draftAndPublish ? 'draft' : undefined,
      actor: opts.actor,
      action: `restore from ${then.entry.commit.slice(0, 12)}`,
    });
    return { version, entry: then.entry };
  }
}

function entryOf(record: string): HistoryEntry {
  const [commit, name, email, date, message] = record.replace(/^\n/, '').split('\x1f');
  return { commit, author: { name, email }, date, message };
}

/**
 * What of a document file's body the history shows: a whitelist read from the current schema. A version keeps its
 * id, its times and the attributes the type has now that the API returns (not private, not passwords); a
 * component keeps the attributes its component has now, the same way. Anything else (a field since removed or
 * renamed, private then or not, keys no schema names) is left out: what once was private stays unseen.
 */
export function publicBody(schemas: SchemaRegistry, ct: ContentType, body: Record<string, unknown>) {
  /** The keys of `data` in `head`, the attributes shown, then the keys in `tail`, in that order. */
  const fields = (attrs: Record<string, Attribute>, data: Record<string, unknown>, head = [] as readonly string[]) => {
    const out: Record<string, unknown> = {};
    for (const k of head) if (Object.hasOwn(data, k)) out[k] = data[k];
    for (const [k, attr] of Object.entries(attrs))
      if (!attr.private && attr.type !== 'password' && Object.hasOwn(data, k)) out[k] = value(attr, data[k]);
    return out;
  };
  /** A component's value by its component now (undefined: no such component, or no object to read). */
  const component = (uid: unknown, data: unknown, dynamic: boolean) => {
    const comp = typeof uid === 'string' ? schemas.components.get(uid) : undefined;
    if (!comp || !isObject(data)) return undefined;
    return fields(comp.attributes, data, dynamic ? ['__component'] : []);
  };
  const value = (attr: Attribute, v: unknown): unknown => {
    if (attr.type !== 'component' && attr.type !== 'dynamiczone') return v;
    const item = (x: unknown) =>
      attr.type === 'component'
        ? component(attr.component, x, false)
        : isObject(x) && component(x.__component, x, true);
    if (Array.isArray(v)) return v.map(item).filter((x) => x);
    return (v !== null && item(v)) || null;
  };
  const version = (v: unknown) => {
    if (!isObject(v)) return undefined;
    const out = fields(ct.attributes, v, VERSION_HEAD);
    for (const k of VERSION_TAIL) if (Object.hasOwn(v, k)) out[k] = v[k];
    return out;
  };
  const slot = (s: unknown) => {
    const out: Record<string, unknown> = {};
    for (const status of [DRAFT, PUBLISHED]) {
      const v = isObject(s) ? version(s[status]) : undefined;
      if (v) out[status] = v;
    }
    return out;
  };
  const out: Record<string, unknown> = {};
  if (typeof body[DOCUMENT_ID] === 'string') out[DOCUMENT_ID] = body[DOCUMENT_ID];
  const locales = body[LOCALES];
  if (!isObject(locales)) return { ...out, ...slot(body) };
  out[LOCALES] = Object.fromEntries(Object.entries(locales).map(([code, s]) => [code, slot(s)]));
  return out;
}

/** The fields that differ between two public bodies of one document, by locale and version (ids and times left out). */
export function fieldChanges(ct: ContentType, then: Record<string, unknown>, now: Record<string, unknown> | undefined) {
  const slots = (body: Record<string, unknown> | undefined): Record<string, unknown> =>
    !body ? {} : ct.localized ? (isObject(body[LOCALES]) ? body[LOCALES] : {}) : { '': body };
  const a = slots(then);
  const b = slots(now);
  const out: FieldChange[] = [];
  const skip = new Set(['id', 'createdAt', 'updatedAt']);
  for (const code of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort())
    for (const status of [DRAFT, PUBLISHED]) {
      const x = isObject(a[code]) && isObject(a[code][status]) ? a[code][status] : undefined;
      const y = isObject(b[code]) && isObject(b[code][status]) ? b[code][status] : undefined;
      const where = `${code ? `locales.${code}.` : ''}${status}`;
      // A version only one side has is one change: the whole version.
      if (!x || !y) {
        if (x || y) out.push({ path: where, then: x ?? null, now: y ?? null });
        continue;
      }
      for (const key of [...new Set([...Object.keys(x), ...Object.keys(y)])]) {
        if (skip.has(key) || JSON.stringify(x[key] ?? null) === JSON.stringify(y[key] ?? null)) continue;
        out.push({ path: `${where}.${key}`, then: x[key] ?? null, now: y[key] ?? null });
      }
    }
  return out;
}

/** A public body with only the locales the document has now (`now`: its public body now; undefined: gone). */
export function localesStillThere(
  ct: ContentType,
  then: Record<string, unknown>,
  now: Record<string, unknown> | undefined,
) {
  const locales = then[LOCALES];
  const kept = now?.[LOCALES];
  if (!ct.localized || !isObject(locales)) return then;
  const codes = new Set(isObject(kept) ? Object.keys(kept) : []);
  return { ...then, [LOCALES]: Object.fromEntries(Object.entries(locales).filter(([code]) => codes.has(code))) };
}
