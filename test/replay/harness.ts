import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_FIXTURES, type TestServer } from '../helpers/project.js';

/** Replays Strapi's recorded conformance scenarios (test/fixtures/strapi-recordings) against a Folio server. */
export const CONFORMANCE = join(TEST_FIXTURES, 'strapi-recordings');

export interface Step {
  name: string;
  method?: string;
  path: string;
  query?: string;
  headers?: Record<string, string | null>;
  body?: unknown;
  rawBody?: string;
  multipart?: {
    fields?: Record<string, unknown>;
    files?: Array<{ field: string; filename: string; contentType: string; base64?: string; text?: string }>;
  };
  note?: string;
}

export interface Exchange {
  name: string;
  note?: string;
  request: { method: string; path: string; query?: string };
  response: {
    status: number;
    headers: Record<string, string>;
    bodyType: 'json' | 'text' | 'empty' | 'binary';
    body: unknown;
  };
}

export interface Result {
  step: Step;
  defaults: Record<string, string>;
  status: number;
  headers: Headers;
  bodyType: Exchange['response']['bodyType'];
  body: unknown;
  /**
   * The row id of an entry Folio created: its create response carries none (folio-decisions.md §2), so a
   * client reads it back.
   */
  createdId?: number;
}

/** The steps of a scenario with `include`s spliced in, each with the default headers in force at that point. */
export function loadScenario(name: string): Array<{ step: Step; defaults: Record<string, string> }> {
  const out: Array<{ step: Step; defaults: Record<string, string> }> = [];
  let defaults: Record<string, string> = {};
  const walk = (file: string) => {
    const items = JSON.parse(readFileSync(join(CONFORMANCE, 'scenarios', file), 'utf8')) as Array<
      Record<string, unknown>
    >;
    for (const item of items) {
      if (item.defaults) {
        defaults = { ...((item.defaults as { headers?: Record<string, string> }).headers ?? {}) };
        continue;
      }
      if (typeof item.include === 'string') {
        walk(item.include);
        continue;
      }
      out.push({ step: item as unknown as Step, defaults: { ...defaults } });
    }
  };
  walk(`${name}.json`);
  return out;
}

export function loadGolden(name: string): Map<string, Exchange> {
  const g = JSON.parse(readFileSync(join(CONFORMANCE, 'golden', `${name}.json`), 'utf8')) as { exchanges: Exchange[] };
  return new Map(g.exchanges.map((e) => [e.name, e]));
}

/** Resolves `{{step.data.x}}`, `{{step.status}}`, `{{step.headers.x}}` and `{{vars.x}}`. */
function lookup(path: string, results: Map<string, Result>, vars: Record<string, string>): unknown {
  const [head, ...rest] = path.split('.');
  if (head === 'vars') return vars[rest[0]];
  const r = results.get(head);
  if (!r) throw new Error(`placeholder {{${path}}}: no step ${head} yet`);
  let cur: unknown;
  if (rest[0] === 'status') return r.status;
  if (rest[0] === 'headers') return r.headers.get(rest.slice(1).join('.'));
  if (rest.join('.') === 'data.id' && r.createdId !== undefined) return r.createdId;
  cur = r.body;
  for (const part of rest.flatMap((p) => p.split(/\[(\d+)\]/).filter(Boolean))) {
    if (cur === null || cur === undefined) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

function substitute(value: unknown, results: Map<string, Result>, vars: Record<string, string>): unknown {
  if (typeof value === 'string') {
    const whole = /^\{\{([^}]+)\}\}$/.exec(value);
    if (whole) return lookup(whole[1], results, vars);
    return value.replace(/\{\{([^}]+)\}\}/g, (_, p: string) => String(lookup(p, results, vars)));
  }
  if (Array.isArray(value)) return value.map((v) => substitute(v, results, vars));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, results, vars)]));
  }
  return value;
}

/** Runs every step in order (but those `notSent`); a step's placeholders may name any earlier step's answer. */
export async function runScenario(
  server: TestServer,
  name: string,
  vars: Record<string, string>,
  notSent: Set<string> = new Set(),
): Promise<Map<string, Result>> {
  const results = new Map<string, Result>();
  for (const { step, defaults } of loadScenario(name)) {
    if (notSent.has(step.name)) continue;
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...defaults, ...step.headers })) {
      // Names lower-cased, so the step's `Content-Type` is the one checked below (fetch would send both).
      if (v !== null && v !== undefined) headers[k.toLowerCase()] = String(substitute(v, results, vars));
    }
    let body: BodyInit | undefined;
    if (step.body !== undefined) {
      body = JSON.stringify(substitute(step.body, results, vars));
      headers['content-type'] = 'application/json';
    } else if (step.rawBody !== undefined) {
      body = String(substitute(step.rawBody, results, vars));
      headers['content-type'] ??= 'application/json';
    } else if (step.multipart) {
      const form = new FormData();
      for (const [k, v] of Object.entries(step.multipart.fields ?? {})) {
        const s = substitute(v, results, vars);
        form.append(k, typeof s === 'object' && s !== null ? JSON.stringify(s) : String(s));
      }
      for (const f of step.multipart.files ?? []) {
        const bytes = f.base64 !== undefined ? Buffer.from(f.base64, 'base64') : Buffer.from(f.text ?? '', 'utf8');
        form.append(f.field, new Blob([bytes], { type: f.contentType }), f.filename);
      }
      body = form;
    }
    const path = String(substitute(step.path, results, vars));
    const query = step.query ? `?${String(substitute(step.query, results, vars))}` : '';
    // Redirects are answers to compare (`GET /` is a 302), not followed, as the recorder did not.
    const res = await fetch(`${server.url}${path}${query}`, {
      method: step.method ?? 'GET',
      headers,
      body,
      redirect: 'manual',
    });
    const buf = Buffer.from(await res.arrayBuffer());
    const type = res.headers.get('content-type') ?? '';
    let bodyType: Result['bodyType'];
    let parsed: unknown = null;
    if (buf.length === 0) bodyType = 'empty';
    else if (type.includes('json')) {
      bodyType = 'json';
      parsed = JSON.parse(buf.toString('utf8'));
    } else if (type.startsWith('text/')) {
      bodyType = 'text';
      parsed = buf.toString('utf8');
    } else {
      bodyType = 'binary';
      parsed = { size: buf.length };
    }
    const result: Result = { step, defaults, status: res.status, headers: res.headers, bodyType, body: parsed };
    const created = (parsed as { data?: { documentId?: string; id?: number } } | null)?.data;
    if ((step.method ?? 'GET') === 'POST' && res.status === 201 && created?.documentId && created.id === undefined) {
      const back = await fetch(`${server.url}${path}/${created.documentId}${query}`, { headers });
      result.createdId = ((await back.json()) as { data?: { id?: number } }).data?.id;
    }
    results.set(step.name, result);
  }
  return results;
}
