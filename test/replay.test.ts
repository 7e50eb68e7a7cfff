import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendFileSync } from 'node:fs';
import { startTestServer, type TestServer } from './helpers/project.js';
import { loadGolden, loadScenario, runScenario, type Result } from './replay/harness.js';
import { Normaliser, schemaForPath, stripComponentIds } from './replay/normalise.js';
import { OVERRIDES, type Override } from './replay/pending.js';
import { createApiToken } from '../src/auth/service.js';

/**
 * Replays every step of Strapi v5's ten recorded conformance scenarios against a fresh Folio server and
 * compares status and body after normalisation (ids, timestamps, tokens). Deliberate differences are
 * applied to the recording (folio-decisions.md) or listed with their reason and Folio's answer in
 * replay/pending.ts.
 */
const SCENARIOS = [
  '01-crud',
  '02-relations',
  '03-pagination-sort',
  '04-filters',
  '05-fields-populate',
  '06-i18n-draft',
  '07-single-types',
  '08-errors-auth',
  '09-users-permissions',
  '10-upload',
];
const REPORT = process.env.FOLIO_REPLAY_REPORT;

/** The tokens of the instance under test (full-access and read-only API tokens). */
async function createVars(server: TestServer): Promise<Record<string, string>> {
  const full = await createApiToken(server.dir, { name: 'conformance-full', type: 'full-access' });
  const ro = await createApiToken(server.dir, { name: 'conformance-ro', type: 'read-only' });
  return { fullAccess: full.accessKey, readOnly: ro.accessKey };
}

/** Listed overrides, and Strapi's recorded 500s on bad input, which Folio answers with a 400 (folio-decisions.md). */
function overrideFor(scenario: string, step: { name: string; note?: string }) {
  const listed = OVERRIDES[scenario]?.[step.name];
  if (listed) return listed;
  if (step.note?.includes('KNOWN-500'))
    return { reason: 'Strapi answers 500 here; Folio a clear 400', status: 400, errorName: 'ValidationError' };
  return undefined;
}

/**
 * The recorded body as Folio answers it on purpose: no component ids, no `id` in create answers (folio-decisions.md
 * §1, §2), and lists without the documents of creates Folio refuses (`refused`: their recorded documentIds).
 */
function expected(step: { path: string; method?: string }, golden: unknown, status: number, refused: Set<string>) {
  let body = golden;
  if (body && typeof body === 'object' && 'data' in (body as object)) {
    const schema = schemaForPath(step.path);
    let data = stripComponentIds((body as { data: unknown }).data, schema);
    // Folio's create responses carry no `id` (folio-decisions.md §2).
    if (
      (step.method ?? 'GET') === 'POST' &&
      status === 201 &&
      data &&
      typeof data === 'object' &&
      !Array.isArray(data) &&
      step.path.startsWith('/api/') &&
      !step.path.startsWith('/api/upload')
    ) {
      delete (data as Record<string, unknown>).id;
    }
    let meta = (body as { meta?: { pagination?: Record<string, number> } }).meta;
    if (Array.isArray(data) && refused.size) {
      const kept = data.filter((d) => !refused.has((d as { documentId?: string }).documentId ?? ''));
      const p = meta?.pagination;
      if (p && 'pageSize' in p && kept.length !== data.length) {
        const total = p.total - (data.length - kept.length);
        meta = { ...meta, pagination: { ...p, total, pageCount: Math.ceil(total / p.pageSize) } };
      }
      data = kept;
    }
    body = { ...(body as object), data, ...(meta ? { meta } : {}) };
  }
  return body;
}

/** Checks Folio's answer to a step it answers differently on purpose against what pending.ts says it answers. */
function expectOverride(r: Result, o: Override) {
  const body = r.body as { data?: Array<{ title?: string }>; error?: { name: string } };
  expect(r.status).toBe(o.status);
  if (o.errorName) expect(body.error?.name).toBe(o.errorName);
  if (o.titles) expect(body.data?.map((d) => d.title)).toEqual(o.titles);
  if (o.matches !== undefined) expect(body).toMatchObject(o.matches as object);
  if (o.text) expect(r.body).toMatch(o.text);
}

for (const scenario of SCENARIOS) {
  describe(`conformance ${scenario}`, () => {
    let server: TestServer;
    let results: Map<string, Result>;
    const golden = loadGolden(scenario);
    const steps = loadScenario(scenario);
    const theirs = new Normaliser();
    const ours = new Normaliser();
    const compared = new Map<string, { want: unknown; got: unknown }>();

    beforeAll(async () => {
      server = await startTestServer();
      results = await runScenario(server, scenario, await createVars(server));
      // The documents Strapi made in the creates Folio refuses, left out of the recording's later lists.
      const refused = new Set(
        steps
          .filter(({ step }) => overrideFor(scenario, step)?.refusesCreate)
          .map(({ step }) => (golden.get(step.name)?.response.body as { data?: { documentId?: string } }).data)
          .map((data) => data?.documentId ?? ''),
      );
      // Normalise in step order on both sides, so documentIds map by order of first appearance.
      for (const { step } of steps) {
        const g = golden.get(step.name);
        const r = results.get(step.name);
        // Steps answered differently on purpose are left out, so they do not shift the placeholders.
        if (!g || !r || overrideFor(scenario, step)) continue;
        const want = theirs.value(expected(step, g.response.body, g.response.status, refused));
        const got = ours.value(r.body);
        compared.set(step.name, { want, got });
      }
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
    });

    for (const { step } of steps) {
      const override = overrideFor(scenario, step);
      const title = override ? ` (${override.fix ? `${override.fix}: ` : ''}${override.reason})` : '';
      it(`${step.name}${title}`, () => {
        const g = golden.get(step.name)!;
        const r = results.get(step.name)!;
        const pair = compared.get(step.name)!;
        try {
          if (override) return expectOverride(r, override);
          expect(r.status).toBe(g.response.status);
          if (g.response.bodyType === 'json') expect(pair.got).toEqual(pair.want);
          else if (g.response.bodyType === 'text') expect(r.body).toBe(g.response.body);
          else if (g.response.bodyType === 'empty') expect(r.bodyType).toBe('empty');
        } catch (err) {
          if (REPORT)
            appendFileSync(
              REPORT,
              `### ${scenario} ${step.name} ${step.method ?? 'GET'} ${step.path}?${step.query ?? ''}\n` +
                `status want ${g.response.status} got ${r.status}\n` +
                `want ${JSON.stringify(pair.want).slice(0, 1500)}\ngot  ${JSON.stringify(pair.got).slice(0, 1500)}\n\n`,
            );
          throw err;
        }
      });
    }
  });
}
