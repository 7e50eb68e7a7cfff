import { describe, expect, it } from 'vitest';
import qs from 'qs';
import { parsePlainQuery } from '../src/query/plain-qs.js';
import { parseQueryString } from '../src/query/parse-qs.js';

/**
 * The common query strings are parsed without qs (src/query/plain-qs.ts): whatever it accepts must come out as
 * qs makes it, key order included, since the answers (and their cache keys) are built from that object.
 */
const QS_OPTIONS = {
  depth: 20,
  arrayLimit: 100,
  parameterLimit: 1000,
  strictNullHandling: true,
  allowPrototypes: false,
  plainObjects: false,
} as const;
const asQs = (raw: string) => JSON.stringify(qs.parse(raw, QS_OPTIONS));

describe('query strings of the common shapes', () => {
  it.each([
    'filters[views][$gt]=5&sort=title:asc&pagination[page]=2',
    'filters[views][$gt]=5&sort=title:asc&pagination[page]=2&populate=author,category',
    'filters[title][$containsi]=hello%20world&pagination[pageSize]=10',
    'filters[title][$eq]=a+b&locale=fr&status=draft',
    'filters[title][$eq]=100%&sort=views:desc',
    'filters[title][$eq]=a]=b&filters[slug][$null]',
    'sort=title&filters[author][name][$eq]=Ada&fields=title',
    'populate=*&_q=x',
    'pagination[withCount]=false&pagination[start]=3&pagination[limit]=5',
    'a[b][c][d][e][f][g][h]=1&a-b_c=%3D&_a[$b-c_1]=x]=y',
    'sort&filters[title][$eq]',
  ])('%s is parsed as qs parses it', (raw) => {
    const plain = parsePlainQuery(raw);
    expect(plain).toBeDefined();
    expect(JSON.stringify(plain)).toBe(asQs(raw));
    expect(JSON.stringify(parseQueryString(raw))).toBe(asQs(raw));
  });

  it.each([
    'sort[0]=title&sort[1]=views',
    'populate[author][fields][0]=name',
    'fields[]=title',
    'sort=a&sort=b',
    'filters=x&filters[a]=1',
    'filters[a]=1&filters=x',
    'a.b=1',
    'filters%5Bviews%5D=1',
    '__proto__[x]=1',
    'filters[constructor]=1',
    'filters[prototype][x]=1',
    'filters[toString]=1',
    'a&&b',
    '=x',
    'a[b',
    'a[b]x=1',
    'a[]=1',
    'a[b]]=1',
    'a[[b]]=1',
    'a[b][c]d=1',
    '1a=1',
    'a[1]=1',
    'a[b]&a',
    'a[b][c][d][e][f][g][h][i]=1',
  ])('%s is left to qs', (raw) => {
    expect(parsePlainQuery(raw)).toBeUndefined();
  });

  it('agrees with qs on random query strings', () => {
    const names = ['filters', 'sort', 'a', 'views', '$gt', '$eq', '0', '', '__proto__', 'toString', 'x-y', 'b.c'];
    const values = ['', '1', 'a+b', '%20', '%zz', 'title:asc', 'a]=b', '=', '[', '%5B', 'é', '%C3%A9'];
    let seed = 32;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    let accepted = 0;
    for (let i = 0; i < 5000; i++) {
      const parts = [];
      for (let p = 0, count = 1 + rand(4); p < count; p++) {
        let key = names[rand(names.length)];
        for (let d = rand(4); d > 0; d--) key += `[${names[rand(names.length)]}]`;
        const shape = rand(5);
        parts.push(shape === 0 ? key : `${key}=${values[rand(values.length)]}${shape === 1 ? '&' : ''}`);
      }
      const raw = parts.join('&');
      const plain = parsePlainQuery(raw);
      if (plain === undefined) continue;
      accepted++;
      expect(JSON.stringify(plain), raw).toBe(asQs(raw));
    }
    expect(accepted).toBeGreaterThan(500);
  });

  it('reads a long query string of many parts a bounded number of times, not once per part', () => {
    // 999 parts without `]=`: a search for it from each part to the end of the string would read ~7 million
    // characters for these 15 KB (a request's worth of CPU an anonymous client could make the server spend).
    const raw = Array.from({ length: 999 }, (_, i) => `k${i}=]]]]]]]]]`).join('&');
    const indexOf = String.prototype.indexOf;
    let read = 0;
    String.prototype.indexOf = function (this: string, needle: string, from = 0) {
      const at = indexOf.call(this, needle, from);
      if (this.length === raw.length) read += (at === -1 ? this.length : at) - from;
      return at;
    };
    try {
      expect(parsePlainQuery(raw)).toEqual(qs.parse(raw, QS_OPTIONS));
    } finally {
      String.prototype.indexOf = indexOf;
    }
    expect(read).toBeLessThan(4 * raw.length);
  });
});
