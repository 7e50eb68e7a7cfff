import type { Status, Version } from './model.js';

/** A copy of `array` in a new typed array of the same kind, `size` long: how the typed arrays here grow. */
export function grown<T extends Int32Array | Uint32Array>(array: T, size: number): T {
  const out = new (array.constructor as new (length: number) => T)(size);
  out.set(array);
  return out;
}

/**
 * Versions by id, for one content-type. Ids are almost always small and dense, and an array indexed by
 * id costs far less to fill at start than a Map of 200,000 entries; ids beyond `dense` (pasted in by
 * hand, say) go to a Map. Beside each version the array keeps a small number for its status and locale,
 * so listing the rows of one status and locale in id order reads two arrays in order instead of 200,000
 * objects scattered over the heap (which is most of the cost of a first list request).
 *
 * An id can also be held by a version that does not exist yet: claimed, with its status and locale, for
 * a document indexed by its summary alone and made on first use (see `DocumentIndex.addSummary`).
 * Reading such an id asks `make` for its document, which puts the version in place (`fill`).
 */
export class IdTable {
  private readonly array: Array<Version | undefined> = [];
  /**
   * Per id below `dense`: 0 for none, else 2 * (locale's number + 1) + (1 if published). Typed and grown
   * by doubling, so `claim` fills it without boxing a number per id.
   */
  private tags = new Uint32Array(64);
  /** Per id below `dense`: 1 + the load position of the document not made yet that holds it; 0 for none. */
  private waiting = new Int32Array(64);
  private readonly locales = new Map<string | null, number>();
  /** The last locale numbered, and its number: versions come in runs of one locale. */
  private lastLocale: string | null | undefined;
  private lastNumber = 0;
  private readonly map = new Map<number, Version>();
  size = 0;
  /**
   * Ids set or deleted since the query indexes last caught up (see FieldIndexes): kept only once there are
   * such indexes, so the load pays nothing for it.
   */
  changes: number[] | undefined;
  /** Ids below this are kept in the array. */
  private dense = 1 << 16;

  /** `make(position)`: makes the document at that load position, which `fill`s its versions in. */
  constructor(private readonly make: (position: number) => void) {}

  /** Ids below this are kept in arrays, the others in a Map. */
  get denseLimit(): number {
    return this.dense;
  }

  /** Keeps ids below `limit` in the array from now on; those already in the Map move over. */
  widen(limit: number) {
    if (limit <= this.dense) return;
    const moving = [...this.map].filter(([id]) => id < limit);
    this.dense = limit;
    for (const [id, v] of moving) {
      this.map.delete(id);
      this.size--;
      this.set(id, v);
    }
  }

  get(id: number): Version | undefined {
    if (id >= this.dense) return this.map.get(id);
    const v = this.array[id];
    // Past the typed arrays' end reads undefined too.
    if (v !== undefined || !this.waiting[id]) return v;
    this.make(this.waiting[id] - 1);
    return this.array[id];
  }

  /** Whether `id` is held by no version, made or waiting. */
  free(id: number): boolean {
    if (id >= this.dense) return !this.map.has(id);
    return id >= this.array.length || (this.array[id] === undefined && this.waiting[id] === 0);
  }

  /** Whether `id` may wait for its version (`await`): only ids kept in the array can. */
  canWait(id: number): boolean {
    return id < this.dense;
  }

  private tagOf(locale: string | null, published: boolean): number {
    if (locale !== this.lastLocale) {
      let n = this.locales.get(locale);
      if (n === undefined) this.locales.set(locale, (n = this.locales.size));
      this.lastLocale = locale;
      this.lastNumber = n;
    }
    return 2 * (this.lastNumber + 1) + (published ? 1 : 0);
  }

  /** Makes room in `array`, `tags` and `waiting` for `id` (below `dense`). */
  private reach(id: number) {
    // Grown by pushes, so the array stays packed whatever order ids come in.
    while (this.array.length <= id) this.array.push(undefined);
    if (this.tags.length <= id) {
      const size = Math.max(id + 1, 2 * this.tags.length);
      this.tags = grown(this.tags, size);
      this.waiting = grown(this.waiting, size);
    }
  }

  /** Sets `id` to `v` if it is free; answers whether it was. */
  claim(id: number, v: Version): boolean {
    if (!this.free(id)) return false;
    this.changes?.push(id);
    if (id >= this.dense) this.map.set(id, v);
    else {
      this.reach(id);
      this.array[id] = v;
      this.tags[id] = this.tagOf(v.locale, v.status === 'published');
    }
    this.size++;
    return true;
  }

  /** Claims a free `id` (below `dense`) for a version of the document at load position `position`, made later. */
  await(id: number, locale: string | null, status: Status, position: number) {
    this.changes?.push(id);
    this.reach(id);
    this.tags[id] = this.tagOf(locale, status === 'published');
    this.waiting[id] = position + 1;
    this.size++;
  }

  /** Puts a version just made in place of the id it waited on. */
  fill(id: number, v: Version) {
    this.array[id] = v;
    this.waiting[id] = 0;
  }

  set(id: number, v: Version) {
    this.changes?.push(id);
    if (id < this.dense) {
      this.reach(id);
      if (this.free(id)) this.size++;
      this.array[id] = v;
      this.waiting[id] = 0;
      this.tags[id] = this.tagOf(v.locale, v.status === 'published');
    } else {
      if (!this.map.has(id)) this.size++;
      this.map.set(id, v);
    }
  }

  delete(id: number) {
    this.changes?.push(id);
    if (id < this.dense) {
      if (!this.free(id)) {
        this.size--;
        this.array[id] = undefined;
        this.tags[id] = 0;
        this.waiting[id] = 0;
      }
    } else if (this.map.delete(id)) this.size--;
  }

  /**
   * The ids held by versions of `status` (undefined: either) and `locale` (undefined: any), in order, made
   * or not: in the array below `until`, and all those past it.
   */
  idsInOrder(until: number, status: Status | undefined, locale: string | null | undefined): Int32Array {
    let out = new Int32Array(1024);
    let n = 0;
    const push = (id: number) => {
      if (n === out.length) out = grown(out, 2 * n);
      out[n++] = id;
    };
    const wantLocale = locale === undefined ? -1 : this.locales.get(locale);
    const wantPublished = status === undefined ? -1 : status === 'published' ? 1 : 0;
    const tags = this.tags;
    const end = Math.min(until, this.array.length);
    if (wantLocale !== undefined) {
      for (let id = 1; id < end; id++) {
        const tag = tags[id];
        if (tag === 0) continue;
        if (wantPublished >= 0 && (tag & 1) !== wantPublished) continue;
        if (wantLocale >= 0 && (tag >> 1) - 1 !== wantLocale) continue;
        push(id);
      }
    }
    // Ids past the array are few (pasted in by hand, or renumbered after a clash, far past `until`): all listed.
    const beyond = [...this.map.keys()].sort((a, b) => a - b);
    for (const id of beyond) {
      const v = this.map.get(id)!;
      if ((status !== undefined && v.status !== status) || (locale !== undefined && v.locale !== locale)) continue;
      push(id);
    }
    return out.subarray(0, n);
  }

  /**
   * Whether an id is held by a version of `status` (undefined: either) and `locale` (undefined: any), as
   * `idsInOrder` would list it: read from the tags, without a version in hand.
   */
  matcher(status: Status | undefined, locale: string | null | undefined): (id: number) => boolean {
    const wantLocale = locale === undefined ? -1 : this.locales.get(locale);
    const wantPublished = status === undefined ? -1 : status === 'published' ? 1 : 0;
    return (id) => {
      if (id >= this.dense) {
        const v = this.map.get(id);
        return !!v && (status === undefined || v.status === status) && (locale === undefined || v.locale === locale);
      }
      const tag = this.tags[id];
      if (!tag || wantLocale === undefined) return false;
      if (wantPublished >= 0 && (tag & 1) !== wantPublished) return false;
      return wantLocale < 0 || (tag >> 1) - 1 === wantLocale;
    };
  }

  /** The versions `idsInOrder` names, made now where they wait. */
  inOrder(until: number, status: Status | undefined, locale: string | null | undefined): Version[] {
    const out: Version[] = [];
    for (const id of this.idsInOrder(until, status, locale)) out.push(this.get(id)!);
    return out;
  }
}
