import type { ReadLimits } from '../config.js';
import { validationError } from '../errors.js';

/**
 * The work one read may do, counted as it is done: rows read through relations (populate, filters, sorts)
 * and shaped into the answer, and the approximate size of that answer. Past a limit the read stops at once
 * with a 400, so a hostile or careless query never holds the event loop or the memory of the server.
 */
export class ReadBudget {
  private rowsLeft: number;
  private bytesLeft: number;

  constructor(private limits: ReadLimits) {
    this.rowsLeft = limits.maxRows;
    this.bytesLeft = limits.maxResponseBytes;
  }

  /** The rows and bytes counted so far. */
  used(): [rows: number, bytes: number] {
    return [this.limits.maxRows - this.rowsLeft, this.limits.maxResponseBytes - this.bytesLeft];
  }

  /** How many rows were counted so far (see `rows`). */
  rowsCounted(): number {
    return this.limits.maxRows - this.rowsLeft;
  }

  /** Counts `n` rows read or shaped. */
  rows(n: number) {
    this.rowsLeft -= n;
    if (this.rowsLeft < 0)
      throw validationError(
        `This request reads too much: more than ${this.limits.maxRows} rows through populate, filters and sorts. ` +
          `Populate fewer levels or ask for a smaller page.`,
        { limit: 'maxRows', max: this.limits.maxRows },
      );
  }

  /** Counts `n` bytes of the answer. */
  bytes(n: number) {
    this.bytesLeft -= n;
    if (this.bytesLeft < 0)
      throw validationError(
        `This request's answer is too large: more than ${this.limits.maxResponseBytes} bytes. ` +
          `Populate fewer levels, select fewer fields or ask for a smaller page.`,
        { limit: 'maxResponseBytes', max: this.limits.maxResponseBytes },
      );
  }
}

/**
 * The depth check of a populate, filter or sort path, made while the parameter is parsed (before any row is
 * read): `path` names the relations, components and media it goes through.
 */
export function checkDepth(limits: ReadLimits | undefined, path: string[], param = 'populate') {
  if (!limits || path.length <= limits.maxPopulateDepth) return;
  throw validationError(
    `Invalid ${param} parameter: ${path.length} levels deep (${path.slice(0, 4).join('.')}...), ` +
      `at most ${limits.maxPopulateDepth}`,
    { limit: 'maxPopulateDepth', max: limits.maxPopulateDepth, source: 'query', param },
  );
}

const sizes = new WeakMap<object, number>();

/** The approximate JSON size of one output value; objects (json, blocks) are measured once each. */
export function valueBytes(v: unknown): number {
  if (v === null || v === undefined) return 4;
  switch (typeof v) {
    case 'string':
      return v.length + 2;
    case 'number':
    case 'boolean':
      return 8;
    case 'object': {
      let n = sizes.get(v);
      if (n === undefined) sizes.set(v, (n = JSON.stringify(v)?.length ?? 4));
      return n;
    }
    default:
      return 8;
  }
}
