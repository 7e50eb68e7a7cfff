import type { ContentType } from '../schema/types.js';
import { type DocumentRecord, NO_LOCALE } from './model.js';

/**
 * Who made a write: a user (their username, and their e-mail when the account proved it), an API token (its
 * name), or the project's owner (no name: the checkout's own git identity). `folio serve --commit` makes them
 * the author of the write's commit.
 */
export interface Actor {
  kind: 'user' | 'token' | 'public' | 'owner';
  name?: string;
  email?: string;
  /** The user's account (its numeric id), which tells apart users whose commits carry no e-mail of theirs. */
  account?: string;
}

/** A file one write changed: what it holds now (`null`: removed; undefined: its bytes on disk, a media file). */
export interface WrittenFile {
  file: string;
  text?: string | null;
}

/** One write, once all of it is on disk: who made it, what it did to what, and exactly the files it changed. */
export interface WriteRecord {
  actor?: Actor;
  /** What was written, for people: `article "Hello"`, `media file "photo.jpg"`. */
  subject: string;
  /** What was done: `update`, `publish`, `delete`... */
  action: string;
  /** The locale the write addressed, on a localized type. */
  locale?: string | null;
  files: WrittenFile[];
}

/** What a write of the document service says of itself (see `DocumentWrites.writing`). */
export interface WriteNote {
  actor?: Actor;
  action: string;
  locale?: string | null;
  /** What is written, when it is not the document written first (a change of the project's locales). */
  subject?: string;
}

/** The attribute a type's documents are named by: `title` or `name`, else its first plain text attribute. */
export function titleField(ct: ContentType): string | undefined {
  const names = Object.keys(ct.attributes);
  const plain = (n: string) => {
    const a = ct.attributes[n];
    return ['string', 'text', 'uid', 'email'].includes(a.type) && !a.private;
  };
  return names.find((n) => (n === 'title' || n === 'name') && plain(n)) ?? names.find(plain);
}

/** A document as people name it: its type and title (`article "Hello"`), or its documentId when it has none. */
export function subjectOf(
  ct: ContentType,
  doc: DocumentRecord | undefined,
  documentId: string,
  locale?: string | null,
) {
  const field = titleField(ct);
  const slot = doc && (doc.slots.get(locale ?? NO_LOCALE) ?? doc.slots.first());
  const version = slot?.draft ?? slot?.published;
  const title = field ? version?.data[field] : undefined;
  if (typeof title !== 'string' || !title.trim()) return `${ct.singularName} ${documentId}`;
  const line = title.replace(/\s+/g, ' ').trim();
  return `${ct.singularName} ${JSON.stringify(line.length > 72 ? `${line.slice(0, 71)}…` : line)}`;
}
