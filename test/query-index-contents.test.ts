import { describe, expect, it } from 'vitest';
import type { RowSet } from '../src/documents/field-indexes.js';
import { Job, type Work } from '../src/documents/sliced-work.js';
import {
  ANY_STATUS_EN,
  AUTHOR,
  DRAFTS_ANY_LOCALE,
  DRAFTS_EN,
  EVERY_ROW,
  TITLE,
  VIEWS,
  containing,
  finish,
  indexesOver,
  ordered,
  version,
} from './helpers/field-index-host.js';

/**
 * What a type's query indexes hold (see FieldIndexes): none is handed out before the job building it is done;
 * a sorted order exists only over values of one kind; the rows of an order or of folded texts are those of its
 * row set, whatever status or locale the set leaves open; a relation's inverse links follow that relation only;
 * and indexes asked for while the type is still being prepared cover the rows it makes.
 */

describe('what the query indexes of a type hold', () => {
  it('hands out no index before the job building it is done, and each one once it is', () => {
    const { fields } = indexesOver(1000, (id) => ({ title: `t${id}`, views: id, author: `a${id % 3}` }));
    const job = fields.need({
      columns: [TITLE],
      texts: [{ field: TITLE, rows: DRAFTS_EN }],
      orders: [{ field: VIEWS, rows: DRAFTS_EN }],
      links: [AUTHOR],
    })!;
    expect(job.step(0)).toBe(false);
    expect(fields.column('title')).toBeUndefined();
    expect(fields.text('title', DRAFTS_EN)).toBeUndefined();
    expect(fields.order('views', DRAFTS_EN)).toBeUndefined();
    expect(fields.linksOf('author')).toBeUndefined();
    finish(job);
    expect(fields.column('title')!.value(7)).toBe('t7');
    expect(containing(fields.text('title', DRAFTS_EN)!, 't999')).toEqual([999]);
    expect(ordered(fields.order('views', DRAFTS_EN))!.slice(0, 3)).toEqual([1, 2, 3]);
    expect(fields.linksOf('author')!.from('a1').length).toBe(334);
    // Indexes nobody asked for are none.
    expect(fields.column('body')).toBeUndefined();
    expect(fields.text('body', DRAFTS_EN)).toBeUndefined();
    expect(fields.order('title', DRAFTS_EN)).toBeUndefined();
    expect(fields.linksOf('title')).toBeUndefined();
  });

  it('keeps no sorted order of a field whose values are of several kinds, and makes one once they are not', () => {
    const made = indexesOver(10, (id) => ({ title: id === 5 ? 42 : `t${id}`, views: id }));
    const needs = { orders: [{ field: TITLE, rows: DRAFTS_EN }] };
    finish(made.fields.need(needs));
    expect(made.fields.column('title')!.kind).toBe('mixed');
    expect(made.fields.order('title', DRAFTS_EN)).toBeUndefined();
    made.ids.set(5, version(5, { title: 't5', views: 5 }));
    finish(made.fields.need(needs));
    expect(ordered(made.fields.order('title', DRAFTS_EN))).toEqual([1, 10, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('drops the order of a field a change gives values of several kinds, and only that one', () => {
    const made = indexesOver(10, (id) => ({ title: `t${id}`, views: id }));
    const needs = {
      orders: [
        { field: TITLE, rows: DRAFTS_EN },
        { field: VIEWS, rows: DRAFTS_EN },
      ],
    };
    finish(made.fields.need(needs));
    expect(made.fields.order('title', DRAFTS_EN)).toBeDefined();
    made.ids.set(5, version(5, { title: 42, views: 0 }));
    expect(made.fields.need({ columns: [TITLE] })).toBeUndefined();
    expect(made.fields.order('title', DRAFTS_EN)).toBeUndefined();
    expect(ordered(made.fields.order('views', DRAFTS_EN))).toEqual([5, 1, 2, 3, 4, 6, 7, 8, 9, 10]);
  });

  // Versions 1-6 are drafts in `en`; 7 is published in `en`, 8 a draft in `fr`, both made after the order.
  const ROWS: Array<[string, RowSet, number[]]> = [
    ['drafts in en', DRAFTS_EN, [6, 5, 4, 3, 2, 1]],
    ['either status in en', ANY_STATUS_EN, [7, 6, 5, 4, 3, 2, 1]],
    ['drafts in any locale', DRAFTS_ANY_LOCALE, [8, 6, 5, 4, 3, 2, 1]],
    ['every version', EVERY_ROW, [8, 7, 6, 5, 4, 3, 2, 1]],
  ];

  it.each(ROWS)('keeps an order over %s holding exactly its rows through changes', (_, rows, expected) => {
    const made = indexesOver(6, (id) => ({ title: `t${id}`, views: 10 - id }));
    const needs = { orders: [{ field: VIEWS, rows }] };
    finish(made.fields.need(needs));
    const order = made.fields.order('views', rows);
    made.ids.set(7, version(7, { title: 't7', views: 3 }, 'published'));
    made.ids.set(8, version(8, { title: 't8', views: 2 }, 'draft', 'fr'));
    made.ids.set(3, version(3, { title: 't3', views: 7 }));
    expect(made.fields.need(needs)).toBeUndefined();
    expect(made.fields.order('views', rows)).toBe(order);
    expect(ordered(order)).toEqual(expected);
  });

  it('finds in folded texts the rows of their row set only, as they change', () => {
    const made = indexesOver(6, (id) => ({ title: `Title ${id}`, views: id }));
    const needs = { texts: [{ field: TITLE, rows: DRAFTS_EN }] };
    finish(made.fields.need(needs));
    made.ids.set(7, version(7, { title: 'A Needle', views: 0 }, 'published'));
    made.ids.set(8, version(8, { title: 'needle too', views: 0 }));
    made.ids.set(2, version(2, { title: 'NEEDLE two', views: 2 }));
    expect(made.fields.need(needs)).toBeUndefined();
    expect(containing(made.fields.text('title', DRAFTS_EN)!, 'needle')).toEqual([2, 8]);
  });

  it('finds a row by its folded text as it is after a change of any of its fields', () => {
    const made = indexesOver(6, (id) => ({ title: `Title ${id}`, views: id }));
    const needs = { columns: [VIEWS], texts: [{ field: TITLE, rows: DRAFTS_EN }] };
    finish(made.fields.need(needs));
    made.ids.set(3, version(3, { title: 'Title 3', views: 30 }));
    expect(made.fields.need(needs)).toBeUndefined();
    expect(containing(made.fields.text('title', DRAFTS_EN)!, 'title 3')).toEqual([3]);
    made.ids.set(3, version(3, { title: 'Renamed', views: 30 }));
    expect(made.fields.need(needs)).toBeUndefined();
    expect(containing(made.fields.text('title', DRAFTS_EN)!, 'renamed')).toEqual([3]);
    expect(containing(made.fields.text('title', DRAFTS_EN)!, 'title 3')).toEqual([]);
  });

  it('keeps the inverse links of a relation from that relation only, as other fields change', () => {
    // A title may read like a related document's id: it is no link.
    const made = indexesOver(4, (id) => ({ title: id === 4 ? 'a1' : 'x', author: 'a1' }));
    finish(made.fields.need({ links: [AUTHOR] }));
    finish(made.fields.need({ columns: [TITLE] }));
    made.ids.set(3, version(3, { title: 'a2', author: 'a1' }));
    made.ids.set(4, version(4, { title: 'z', author: 'a1' }));
    expect(made.fields.need({ links: [AUTHOR], columns: [TITLE] })).toBeUndefined();
    const links = made.fields.linksOf('author')!;
    expect([...links.from('a1')].sort()).toEqual([1, 2, 3, 4]);
    expect(links.from('a2').length).toBe(0);
  });

  it('builds indexes asked for while the type is being prepared over the rows it makes', () => {
    const made = indexesOver(10, (id) => ({ title: `t${id}`, views: id }));
    // The preparation makes 600 more versions, a hundred between pauses.
    function* prepare(): Work {
      for (let id = 11; id <= 610; id++) {
        made.ids.set(id, version(id, { title: `t${id}`, views: id }));
        if (id % 100 === 0) yield;
      }
    }
    const preparing = new Job(prepare());
    made.prepareWith(preparing);
    const job = made.fields.need({ orders: [{ field: VIEWS, rows: DRAFTS_EN }] })!;
    finish(job);
    expect(preparing.done).toBe(true);
    const order = ordered(made.fields.order('views', DRAFTS_EN))!;
    expect(order).toHaveLength(610);
    expect(order.slice(-2)).toEqual([609, 610]);
    expect(made.log()).toBe(0);
  });
});
