import { describe, expect, it } from 'vitest';
import { metaJson, writeMeta } from '../src/query/bodies.js';

/** A list page's meta is written out by hand (bodies.ts): it must be the text JSON.stringify gives, byte for byte. */
describe("a list page's meta text", () => {
  const metas: Array<Record<string, number>> = [
    { page: 1, pageSize: 25, pageCount: 40, total: 1000 },
    { page: 3, pageSize: 1, pageCount: 0, total: 0 },
    { start: 0, limit: 10, total: 7 },
    { start: 20, limit: -1, total: 12345678901 },
    { page: 2, pageSize: 0.5, pageCount: 1e21, total: -0 },
    { page: 1, pageSize: Number.NaN, pageCount: Number.POSITIVE_INFINITY, total: 3 },
    { 'odd "key"\n': 1 },
    {},
    { page: 9007199254740991, pageSize: -9007199254740991, pageCount: 10, total: 99 },
  ];
  it.each(metas.map((meta) => [JSON.stringify(meta), meta] as const))('%s', (_name, meta) => {
    expect(metaJson(meta)).toBe(`${JSON.stringify({ pagination: meta })}}`);
  });

  // Written as bytes where every value is a safe integer other than -0 and every key a plain word; else left to
  // metaJson's text (-1).
  const asBytes = [true, true, true, true, false, false, false, true, true];
  it.each(metas.map((meta, i) => [JSON.stringify(meta), meta, asBytes[i]] as const))(
    '%s as bytes',
    (_name, meta, written) => {
      const out = new Uint8Array(300).fill(0x78);
      const end = writeMeta(meta, out, 7);
      if (!written) return expect(end).toBe(-1);
      expect(Buffer.from(out.subarray(7, end)).toString('latin1')).toBe(metaJson(meta));
      // Nothing written around it.
      expect(out[6]).toBe(0x78);
      expect(out[end]).toBe(0x78);
    },
  );

  it('leaves a meta that would pass the end of the bytes to the text', () => {
    const meta = { page: 1, pageSize: 25, pageCount: 40, total: 1000 };
    const text = metaJson(meta);
    expect(writeMeta(meta, new Uint8Array(text.length + 3), 4)).toBe(-1);
    expect(writeMeta(meta, new Uint8Array(10), 0)).toBe(-1);
    const out = new Uint8Array(text.length + 2 + 64);
    expect(writeMeta(meta, out, 2)).toBe(text.length + 2);
  });
});
