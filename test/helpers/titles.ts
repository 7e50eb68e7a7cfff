import { expect } from 'vitest';
import type { TestServer } from './project.js';

/** The titles of `/api/articles?<qs>` in the order served, the answer checked to be a 200 (its error said if not). */
export function articleTitles(server: () => TestServer) {
  return async (qs: string): Promise<string[]> => {
    const res = await server().api(`/api/articles?${qs}`);
    expect(res.status, JSON.stringify(res.body?.error)).toBe(200);
    return res.body.data.map((a: { title: string }) => a.title);
  };
}
