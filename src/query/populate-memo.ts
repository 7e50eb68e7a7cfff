import type { FolioConfig } from '../config.js';
import type { SchemaRegistry } from '../schema/registry.js';
import type { ContentType } from '../schema/types.js';
import type { ReadContext } from './context.js';
import { type PopulateTree, parsePopulate } from './populate.js';
import { checkPopulate } from './populate-check.js';

/** A `populate` text as checked and read once: what it was read against, and the tree it gave. */
interface Read {
  schemas: SchemaRegistry;
  config: FolioConfig;
  /** Each content-type the reading asked `canFind` about, and the answer, in order. */
  asked: Array<[uid: string, allowed: boolean]>;
  tree: PopulateTree;
}

/** Texts longer than this are read every time: clients send short lists (`author,category`). */
const MAX_TEXT = 256;
/** Texts remembered per content-type; past it the memo starts again, so no client can grow it without bound. */
const MAX_TEXTS = 64;

const memos = new WeakMap<ContentType, Map<string, Read>>();

/** The tree of a read without `populate`, shared as the memo's are: read only. */
export const NO_POPULATE: PopulateTree = new Map();

/**
 * The `populate` parameter of a read on `ct`, checked (populate-check.ts, 400s as Strapi gives them) and read
 * (populate.ts). A text of dot paths (`author,category`) gives a tree of attribute names alone, decided by the
 * schemas, folio.json's read bounds and which types the caller may find: it is read once and reused by the next
 * reads that ask it with the same schemas, settings and answers of `canFind`. The tree is shared: read only.
 */
export function readPopulate(ctx: ReadContext, ct: ContentType, raw: unknown): PopulateTree {
  if (raw === undefined) return NO_POPULATE;
  if (typeof raw !== 'string' || raw === '*' || raw.length > MAX_TEXT) return readNow(ctx, ct, raw);
  let texts = memos.get(ct);
  const known = texts?.get(raw);
  if (known && known.schemas === ctx.schemas && known.config === ctx.config && sameAnswers(ctx, known.asked))
    return known.tree;
  const asked: Read['asked'] = [];
  const canFind = (uid: string) => {
    const allowed = ctx.canFind(uid);
    asked.push([uid, allowed]);
    return allowed;
  };
  const tree = readNow({ ...ctx, canFind }, ct, raw);
  if (!texts) memos.set(ct, (texts = new Map()));
  if (texts.size >= MAX_TEXTS) texts.clear();
  texts.set(raw, { schemas: ctx.schemas, config: ctx.config, asked, tree });
  return tree;
}

function readNow(ctx: ReadContext, ct: ContentType, raw: unknown): PopulateTree {
  checkPopulate(ctx, ct, raw);
  return parsePopulate(ctx, { kind: 'document', ct }, raw);
}

function sameAnswers(ctx: ReadContext, asked: Read['asked']): boolean {
  for (const [uid, allowed] of asked) if (ctx.canFind(uid) !== allowed) return false;
  return true;
}
