import type { SchemaRegistry } from '../schema/registry.js';
import type { ContentType } from '../schema/types.js';
import { type DocumentIndex, MAKE_STEP } from './doc-index.js';
import { type DocumentRecord, NO_LOCALE, type Version } from './model.js';
import { type Key, type UniquePlace, isSharedValue, keyOf, uniquePlaces } from './unique-places.js';
import { ShardedMap } from './sharded-map.js';

export { isSharedValue, isUniqueAttribute } from './unique-places.js';

/**
 * Per place (see unique-places.ts) and locale: value -> the document whose published version holds it (the
 * documents, when several do).
 */
type Holders = Map<string, ShardedMap<string | Set<string>>>;

interface TypeValues {
  ct: ContentType;
  /** Where the type's versions hold values of unique fields. */
  places: UniquePlace[];
  /** Whether every document's values are in (see `ready`). */
  complete: boolean;
  holders: Holders;
  /** Per locale, each field's key into `holders` (made once: a type has few locales). */
  keys: Map<string, string[]>;
}

const typeValues = (schemas: SchemaRegistry, ct: ContentType, complete: boolean): TypeValues => ({
  ct,
  places: uniquePlaces(schemas, ct),
  complete,
  holders: new Map(),
  keys: new Map(),
});

/** The keys into `holders` of a type's places, for one locale. */
function keysOf(t: TypeValues, code: string): string[] {
  let keys = t.keys.get(code);
  if (!keys) t.keys.set(code, (keys = t.places.map((p) => slotKey(p.name, code === NO_LOCALE ? null : code))));
  return keys;
}

function hold(t: TypeValues, sk: string, key: Key, documentId: string) {
  let values = t.holders.get(sk);
  if (!values) t.holders.set(sk, (values = new ShardedMap()));
  const now = values.get(key);
  if (now === undefined) values.set(key, documentId);
  else if (typeof now === 'string') {
    if (now !== documentId) values.set(key, new Set([now, documentId]));
  } else now.add(documentId);
}

function release(t: TypeValues, sk: string, key: Key, documentId: string) {
  const values = t.holders.get(sk);
  const now = values?.get(key);
  if (now === documentId) values!.delete(key);
  else if (now instanceof Set) {
    now.delete(documentId);
    if (now.size === 1) values!.set(key, now.values().next().value!);
  }
}

function* holdersOf(t: TypeValues, sk: string, key: Key): Generator<string> {
  const now = t.holders.get(sk)?.get(key);
  if (typeof now === 'string') yield now;
  else if (now) yield* now;
}

/** How long one slice of reading a type's values runs before the server answers others. */
const SLICE_MS = 8;

const slotKey = (field: string, locale: string | null) => `${field}\u0000${locale ?? NO_LOCALE}`;

/**
 * The values of unique fields in the published versions of each type: who holds each (Strapi checks a published
 * version against the other documents' published versions of its locale; drafts are never checked). Built for a
 * type when first asked, then kept current from the index's changes. A write that checked its values claims them
 * until its document is indexed, so two writes side by side cannot both publish one value.
 */
export class UniqueValues {
  private readonly types = new Map<string, TypeValues>();
  private readonly claims = new Map<string, string>();
  private readonly building = new Map<string, Promise<void>>();

  constructor(
    private readonly index: DocumentIndex,
    /** The project's schemas, where the components of a type are found. */
    private readonly schemas: () => SchemaRegistry,
  ) {
    index.watch((uid, documentId, doc, prev) => {
      const t = this.types.get(uid);
      if (!t) return;
      // The copy replaced gives its values back; one never decoded was never read here, so holds none.
      if (prev && !index.isUndecoded(prev)) this.visit(t, prev, (sk, key) => release(t, sk, key, documentId));
      if (doc) this.visit(t, doc, (sk, key) => hold(t, sk, key, documentId));
    });
  }

  /**
   * Another document (not `documentId`) whose published version in `locale` holds `value` at `place` (a field of
   * the type's own, or a place in its components: see unique-places.ts), or that a write under way claimed it
   * for; undefined when it is free.
   */
  holder(ct: ContentType, place: string, locale: string | null, value: unknown, documentId?: string) {
    const key = keyOf(value);
    if (key === undefined || isSharedValue(value)) return undefined;
    const claimed = this.claims.get(claimKey(ct, place, locale, key));
    if (claimed !== undefined && claimed !== documentId) return claimed;
    for (const other of holdersOf(this.of(ct), slotKey(place, locale), key)) if (other !== documentId) return other;
    return undefined;
  }

  /** The places of `ct`'s unique fields (see unique-places.ts). */
  places(ct: ContentType): UniquePlace[] {
    return uniquePlaces(this.schemas(), ct);
  }

  /**
   * The text values starting with `prefix` that other documents than `documentId` hold in `field` in `locale`, in
   * a draft or a published version, or that writes under way claimed: what a value to suggest must not be. Read
   * from the documents (suggestions are asked for now and then; drafts are not kept above).
   */
  valuesLike(ct: ContentType, field: string, locale: string | null, prefix: string, documentId?: string): Set<string> {
    const out = new Set<string>();
    const take = (v: unknown) => typeof v === 'string' && v.startsWith(prefix) && out.add(v);
    for (const doc of this.index.documents(ct.uid)) {
      if (doc.documentId === documentId) continue;
      const slot = doc.slots.get(locale ?? NO_LOCALE);
      if (slot?.draft) take(slot.draft.data[field]);
      if (slot?.published) take(slot.published.data[field]);
    }
    const mine = `${ct.uid}\u0000${slotKey(field, locale)}\u0000string:`;
    for (const [claim, holder] of this.claims)
      if (holder !== documentId && claim.startsWith(mine)) take(claim.slice(mine.length));
    return out;
  }

  /** Claims the unique values of `v`, a version about to be published, until `release` is called. */
  claim(ct: ContentType, v: Version): () => void {
    const mine: string[] = [];
    const keys: Key[] = [];
    for (const place of this.places(ct)) {
      keys.length = 0;
      place.read(v.data, keys);
      for (const key of keys) {
        const claim = claimKey(ct, place.name, v.locale, key);
        if (this.claims.has(claim)) continue;
        this.claims.set(claim, v.documentId);
        mine.push(claim);
      }
    }
    return () => {
      for (const claim of mine) this.claims.delete(claim);
    };
  }

  /**
   * Resolves once the values of `ct` are known. The first call reads them from every document of the type, a slice
   * at a time (reading values decodes documents indexed before their values were), so the server goes on
   * answering meanwhile; later ones resolve at once. A write waits for it before it checks its values.
   */
  ready(ct: ContentType): Promise<void> {
    const building = this.building.get(ct.uid);
    if (building) return building;
    if (this.types.has(ct.uid)) return Promise.resolve();
    if (!this.places(ct).length) {
      this.types.set(ct.uid, typeValues(this.schemas(), ct, true));
      return Promise.resolve();
    }
    const built = this.build(ct).finally(() => this.building.delete(ct.uid));
    this.building.set(ct.uid, built);
    return built;
  }

  /** Reads the values of every type with unique fields ahead of the first write (a server does after start). */
  async readyAll(types: Iterable<ContentType>): Promise<void> {
    for (const ct of types) await this.ready(ct);
  }

  private async build(ct: ContentType) {
    const t = typeValues(this.schemas(), ct, false);
    // Registered first: a document changed meanwhile is taken in by the index's change events.
    this.types.set(ct.uid, t);
    const slice = async (work: () => boolean) => {
      for (let more = true; more;) {
        const until = performance.now() + SLICE_MS;
        do more = work();
        while (more && performance.now() < until);
        if (more) await new Promise((r) => setImmediate(r));
      }
    };
    if (this.index.has(ct.uid)) await slice(() => this.index.makeWaiting(ct.uid, MAKE_STEP) > 0);
    const docs = this.index.has(ct.uid) ? [...this.index.documents(ct.uid)] : [];
    let at = 0;
    await slice(() => {
      if (t.complete) return false;
      const doc = docs[at++];
      // One replaced or removed since was taken in (or out) by its change event.
      if (doc && this.index.get(ct.uid, doc.documentId) === doc) this.take(t, doc);
      return at < docs.length;
    });
    t.complete = true;
  }

  /** The values of a type whose values are known (see `ready`); read at once otherwise. */
  private of(ct: ContentType): TypeValues {
    let t = this.types.get(ct.uid);
    if (!t) this.types.set(ct.uid, (t = typeValues(this.schemas(), ct, false)));
    if (!t.complete) {
      if (t.places.length) for (const doc of this.index.documents(ct.uid)) this.take(t, doc);
      t.complete = true;
    }
    return t;
  }

  /** Takes a document's values out, and puts those of its new copy in (none: it is gone). */
  private take(t: TypeValues, doc: DocumentRecord) {
    this.visit(t, doc, (sk, key) => hold(t, sk, key, doc.documentId));
  }

  /** Each value a document's published versions hold in the type's unique places, with its key into `holders`. */
  private visit(t: TypeValues, doc: DocumentRecord, fn: (sk: string, key: Key) => void) {
    if (!t.places.length) return;
    const found: Key[] = [];
    doc.slots.forEach((slot, code) => {
      const v = slot.published;
      if (!v) return;
      const keys = keysOf(t, code);
      const data = v.data;
      for (let p = 0; p < t.places.length; p++) {
        found.length = 0;
        t.places[p].read(data, found);
        for (const key of found) fn(keys[p], key);
      }
    });
  }
}

const claimKey = (ct: ContentType, place: string, locale: string | null, key: Key) =>
  `${ct.uid}\u0000${slotKey(place, locale)}\u0000${typeof key}:${String(key)}`;

/** A value of a unique field that published versions of several documents hold in one locale. */
export interface UniqueClash {
  /** The field's place (see unique-places.ts): its name, for a field of the type's own. */
  field: string;
  locale: string | null;
  value: unknown;
  /** The documents holding it, in the order met. */
  documentIds: string[];
}

/**
 * The values of unique fields (and uids) several documents' published versions of one locale share: what a
 * merge of two branches, or an import into a project with documents of its own, can bring.
 */
export function uniqueClashes(schemas: SchemaRegistry, ct: ContentType, docs: Iterable<DocumentRecord>): UniqueClash[] {
  const places = uniquePlaces(schemas, ct);
  if (!places.length) return [];
  const seen = new Map<string, UniqueClash>();
  const keys: Key[] = [];
  for (const doc of docs) {
    for (const [code, slot] of doc.slots) {
      const v = slot.published;
      if (!v) continue;
      const locale = code === NO_LOCALE ? null : code;
      for (const place of places) {
        keys.length = 0;
        place.read(v.data, keys);
        for (const key of keys) {
          const k = `${slotKey(place.name, locale)}\u0000${typeof key}:${String(key)}`;
          const clash = seen.get(k) ?? { field: place.name, locale, value: key, documentIds: [] };
          seen.set(k, clash);
          if (!clash.documentIds.includes(doc.documentId)) clash.documentIds.push(doc.documentId);
        }
      }
    }
  }
  return [...seen.values()].filter((c) => c.documentIds.length > 1);
}
