import { describe, expect, it } from 'vitest';
import { LinkIndex } from '../src/documents/link-index.js';

/**
 * The inverse links of a relation (which versions point at each target) answer a filter through the relation:
 * they list each version once, in id order, whatever order the writes came in, and a list handed to a query that
 * pauses while it reads it stays as it was when later writes change the links.
 */
describe('inverse links', () => {
  it('lists the versions pointing at a target once each, in id order, through adds and removes in any order', () => {
    const links = new LinkIndex();
    for (const id of [40, 7, 12, 3, 99, 12, 58]) links.add(id, 'ada');
    links.add(21, ['bob', 'ada', 'ada@fr', 'bob']);
    expect([...links.from('ada')]).toEqual([3, 7, 12, 21, 40, 58, 99]);
    expect([...links.from('bob')]).toEqual([21]);
    links.remove(12, 'ada');
    links.remove(3, ['ada']);
    links.remove(99, 'bob');
    links.remove(1000, 'ada');
    expect([...links.from('ada')]).toEqual([7, 21, 40, 58, 99]);
    links.remove(21, ['bob', 'ada']);
    expect([...links.from('ada')]).toEqual([7, 40, 58, 99]);
    expect([...links.from('bob')]).toEqual([]);
    expect([...links.from('nobody')]).toEqual([]);
  });

  it('keeps a list already handed out as it was while the links change', () => {
    const links = new LinkIndex();
    for (let id = 1; id <= 600; id++) links.add(id * 2, id % 2 ? 'ada' : 'bob');
    const before = [...links.from('ada')];
    const held = links.from('ada');
    links.remove(2, 'ada');
    links.add(5, 'ada');
    links.add(2000, 'ada');
    for (let id = 3; id < 300; id += 4) links.remove(id * 2, 'ada');
    expect([...held]).toEqual(before);
    const now = [...links.from('ada')];
    expect(now[0]).toBe(5);
    expect(now).toContain(2000);
    expect(now).not.toContain(6);
    expect(now).toEqual([...now].sort((a, b) => a - b));
  });

  it('follows a target pointed at by one version, then two, then one and none again', () => {
    const links = new LinkIndex();
    links.add(8, 'solo');
    links.add(8, ['solo']);
    expect([...links.from('solo')]).toEqual([8]);
    links.add(5, 'solo');
    expect([...links.from('solo')]).toEqual([5, 8]);
    links.remove(8, 'solo');
    expect([...links.from('solo')]).toEqual([5]);
    links.remove(4, 'solo');
    links.remove(5, 'solo');
    expect([...links.from('solo')]).toEqual([]);
    links.remove(5, 'solo');
    links.add(3, 'solo');
    links.remove(9, 'solo');
    expect([...links.from('solo')]).toEqual([3]);
  });
});
