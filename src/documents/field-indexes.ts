import type { Status, Version } from './model.js';
import type { IdTable } from './id-table.js';
import { Column } from './column.js';
import { SortedOrder } from './sorted-order.js';
import { LinkIndex } from './link-index.js';
import { TextIndex } from './text-index.js';
import { Job, ROWS_PER_PAUSE, type Work } from './sliced-work.js';

/** A field as a query reads it: `key` names it within its type, `extract` reads its value from a version. */
export interface FieldSpec {
  key: string;
  extract: (v: Version) => unknown;
}

/** A row set of a type: versions of `status` (undefined: any) in `locale` (undefined: any); `key` names it. */
export interface RowSet {
  key: string;
  status: Status | undefined;
  locale: string | null | undefined;
}

/** What a query needs of a type's indexes: columns, sorted orders over a row set, folded text, inverse links. */
export interface IndexNeeds {
  columns?: FieldSpec[];
  orders?: Array<{ field: FieldSpec; rows: RowSet }>;
  texts?: Array<{ field: FieldSpec; rows: RowSet }>;
  links?: FieldSpec[];
}

/** What the indexes need of the document index holding the type. */
export interface FieldIndexHost {
  ids: IdTable;
  /** The ids held by versions of a row set, in id order. */
  rowIds(rows: RowSet): Int32Array;
  /** Every id held, in id order. */
  allIds(): Int32Array;
  /** The job making the type ready for whole-type reads (see DocumentIndex.prepared), if it is not. */
  preparing(): Job | undefined;
  /** Ids from this one up are kept in a Map by columns. */
  nearLimit: number;
}

/** Logs at most this long are applied when a query asks; longer ones by the job, a slice at a time. */
const CATCH_UP_AT_ONCE = 2048;

const isMember = (rows: RowSet, v: Version) =>
  (rows.status === undefined || v.status === rows.status) && (rows.locale === undefined || v.locale === rows.locale);

interface OrderEntry {
  order: SortedOrder;
  rows: RowSet;
  ready: boolean;
}

/**
 * The query indexes of one type, built when a query first needs them (a slice at a time, see `need`) and kept
 * current with every change of a version: the id table logs each id it sets or deletes, and `catchUp` applies
 * the log before the indexes are read. A long log (a branch switch) drops them instead, to be built again.
 */
export class FieldIndexes {
  private columns = new Map<string, { column: Column; ready: boolean }>();
  private orders = new Map<string, OrderEntry>();
  private links = new Map<string, { links: LinkIndex; column: string; ready: boolean }>();
  private texts = new Map<string, { text: TextIndex; ready: boolean }>();
  private queue: Array<() => Work> = [];
  private job: Job | undefined;

  constructor(private readonly host: FieldIndexHost) {
    host.ids.changes ??= [];
  }

  /**
   * Registers what a query needs; answers the job building what is missing (undefined when all is there and
   * current). The indexes must not be read before it is done.
   */
  need(needs: IndexNeeds): Job | undefined {
    const running = this.job && !this.job.done;
    // Between jobs the log is applied first (a long one by the job, a slice at a time); a very long one drops
    // the indexes instead, and those needed are built again.
    if (!running) {
      if (this.logTooLong()) this.dropAll();
      else if (this.host.ids.changes!.length <= CATCH_UP_AT_ONCE) this.catchUp();
    }
    for (const f of needs.columns ?? []) this.columnEntry(f);
    for (const t of needs.texts ?? []) {
      const key = `${t.field.key}|${t.rows.key}`;
      if (this.texts.has(key)) continue;
      const col = this.columnEntry(t.field).column;
      const entry = { text: new TextIndex(col, (v) => isMember(t.rows, v), this.host.ids), ready: false };
      this.texts.set(key, entry);
      this.enqueue(() => this.textWork(entry, t.rows));
    }
    for (const o of needs.orders ?? []) {
      const key = `${o.field.key}|${o.rows.key}`;
      if (this.orders.has(key)) continue;
      const col = this.columnEntry(o.field).column;
      const entry: OrderEntry = { order: undefined!, rows: o.rows, ready: false };
      this.orders.set(key, entry);
      this.enqueue(() => this.orderWork(key, entry, col));
    }
    for (const f of needs.links ?? []) {
      if (this.links.has(f.key)) continue;
      const col = this.columnEntry(f);
      const entry = { links: new LinkIndex(), column: f.key, ready: false };
      this.links.set(f.key, entry);
      this.enqueue(() => entry.links.build(col.column, this.host.allIds(), () => (entry.ready = true)));
    }
    if (running) return this.job;
    if (!this.queue.length && !this.host.preparing() && !this.host.ids.changes!.length) return undefined;
    this.job = new Job(this.run());
    return this.job;
  }

  /** Whether the log is longer than applying it is worth: rebuilding the indexes when next asked costs less. */
  private logTooLong(): boolean {
    const log = this.host.ids.changes!;
    return log.length > 4096 && log.length > this.host.ids.size / 8;
  }

  /**
   * After a change: drops the indexes once the log is too long to be worth applying, so a type written to and
   * not queried keeps no log that grows with every write (a running job applies its log when it ends).
   */
  changed() {
    if ((!this.job || this.job.done) && this.logTooLong()) this.dropAll();
  }

  private columnEntry(f: FieldSpec) {
    let entry = this.columns.get(f.key);
    if (!entry) {
      entry = { column: new Column(f.extract, this.host.nearLimit), ready: false };
      this.columns.set(f.key, entry);
      const e = entry;
      this.enqueue(() => this.columnWork(e));
    }
    return entry;
  }

  private enqueue(work: () => Work) {
    this.queue.push(work);
  }

  private *run(): Work {
    const preparing = this.host.preparing();
    while (preparing && !preparing.step(4)) yield preparing.parked;
    // The log holds what changed while the type was prepared: the indexes built below read it as it is now.
    yield* this.catchUpSliced();
    while (this.queue.length) yield* this.queue.shift()!();
    yield* this.catchUpSliced();
  }

  private *columnWork(entry: { column: Column; ready: boolean }): Work {
    const ids = this.host.allIds();
    for (let i = 0; i < ids.length; i += ROWS_PER_PAUSE) {
      entry.column.setMany(ids, i, Math.min(ids.length, i + ROWS_PER_PAUSE), this.host.ids);
      yield;
    }
    entry.ready = true;
  }

  private *textWork(entry: { text: TextIndex; ready: boolean }, rows: RowSet): Work {
    yield* entry.text.build(this.host.rowIds(rows));
    entry.ready = true;
  }

  private *orderWork(key: string, entry: OrderEntry, column: Column): Work {
    if (column.kind === 'mixed') {
      // No order over values of several kinds: queries on this field read each row instead.
      if (this.orders.get(key) === entry) this.orders.delete(key);
      return;
    }
    entry.order = new SortedOrder(column, this.host.rowIds(entry.rows));
    yield* entry.order.build();
    entry.ready = true;
  }

  private dropAll() {
    for (const entry of this.columns.values()) entry.column.dropped = true;
    this.columns.clear();
    this.orders.clear();
    this.links.clear();
    this.texts.clear();
    this.host.ids.changes!.length = 0;
  }

  /** Applies the changes logged since the last time to every index. */
  private catchUp() {
    const log = this.host.ids.changes!;
    for (let i = 0; i < log.length; i++) this.apply(log[i]);
    log.length = 0;
  }

  /** `catchUp` a slice at a time (changes logged meanwhile are applied too). */
  private *catchUpSliced(): Work {
    const log = this.host.ids.changes!;
    for (let i = 0; i < log.length; i++) {
      this.apply(log[i]);
      if ((i & 511) === 511) yield;
    }
    log.length = 0;
  }

  private apply(id: number) {
    const v = this.host.ids.get(id);
    for (const [key, { column }] of this.columns) {
      const old = column.value(id);
      // An order not built yet is built from the column as it will be; only built ones are kept current.
      for (const [okey, entry] of this.orders)
        if (entry.ready && okey.startsWith(`${key}|`)) entry.order.remove(id, old);
      for (const l of this.links.values()) if (l.column === key) l.links.remove(id, old);
      for (const [tkey, t] of this.texts) if (tkey.startsWith(`${key}|`)) t.text.changed(id);
      column.set(id, v);
      if (column.kind === 'mixed') {
        for (const okey of [...this.orders.keys()]) if (okey.startsWith(`${key}|`)) this.orders.delete(okey);
      }
      if (!v) continue;
      for (const [okey, entry] of this.orders)
        if (entry.ready && okey.startsWith(`${key}|`) && isMember(entry.rows, v)) entry.order.insert(id);
      for (const l of this.links.values()) if (l.column === key) l.links.add(id, column.value(id));
    }
  }

  /** A column built by `need`. */
  column(key: string): Column | undefined {
    const e = this.columns.get(key);
    return e?.ready ? e.column : undefined;
  }

  /** A sorted order built by `need` (undefined when the field's values are of several kinds). */
  order(field: string, rows: RowSet): SortedOrder | undefined {
    const e = this.orders.get(`${field}|${rows.key}`);
    return e?.ready ? e.order : undefined;
  }

  /** The case-folded texts of a field over a row set, built by `need`. */
  text(field: string, rows: RowSet): TextIndex | undefined {
    const e = this.texts.get(`${field}|${rows.key}`);
    return e?.ready ? e.text : undefined;
  }

  /** The inverse links built by `need` over a relation field. */
  linksOf(key: string): LinkIndex | undefined {
    const e = this.links.get(key);
    return e?.ready ? e.links : undefined;
  }
}
