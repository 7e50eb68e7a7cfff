import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeProject, startTestServer, type TestServer } from './helpers/project.js';
import { loadGolden, loadScenario, runScenario, type Result } from './replay/harness.js';
import { Normaliser } from './replay/normalise.js';
import { createApiToken } from '../src/auth/service.js';

/**
 * Validation errors as Strapi 5.54 words them (issue 24 §4): the recorded steps of the errors and
 * users-permissions scenarios, compared whole (status and body, normalised as the replay does).
 */
const STEPS: Record<string, string[]> = {
  '08-errors-auth': [
    // A string attribute given a number is refused, with the value sent.
    'wrongTypeTitleNumber',
    // Every entry carries `value`: the value sent, or null where it could not be cast.
    'wrongTypeInteger',
    'wrongTypeDecimal',
    'wrongTypeBoolean',
    'integerFloat',
    'minViolated',
    'invalidUid',
    'invalidEmail',
    'maxLengthExceeded',
    'componentWrongShape',
    'componentMissingRequired',
    'missingRequired',
    // `data` that is not an object.
    'dataIsString',
    'dataIsArray',
    'dataIsNull',
    'bodyWithoutData',
    // A zone entry without `__component`: two errors, as Strapi lists them.
    'dzMissingComponentKey',
    // An unknown media id: the details carry the entry as it would have been written.
    'mediaUnknownId',
  ],
  '09-users-permissions': [
    'registerMissingEmail',
    'registerShortPassword',
    'registerInvalidEmail',
    'loginMissingFields',
    'changePasswordMismatch',
    'refreshMissing',
  ],
};

/**
 * The steps of `scenario` not needed for `names`: needed are those steps and, in turn, the earlier steps whose
 * answers their paths, headers and bodies take values from (`{{register.jwt}}`). Only those are sent.
 */
function notNeeded(scenario: string, names: string[]): Set<string> {
  const steps = loadScenario(scenario);
  const text = new Map(steps.map(({ step, defaults }) => [step.name, JSON.stringify([step, defaults])]));
  const needed = new Set<string>();
  const need = (name: string) => {
    if (needed.has(name)) return;
    needed.add(name);
    for (const [, ref] of text.get(name)!.matchAll(/\{\{(\w+)[.}]/g)) if (text.has(ref)) need(ref);
  };
  names.forEach(need);
  return new Set(steps.map(({ step }) => step.name).filter((name) => !needed.has(name)));
}

for (const [scenario, names] of Object.entries(STEPS)) {
  describe(`Strapi's validation errors: ${scenario}`, () => {
    let server: TestServer;
    let results: Map<string, Result>;
    const golden = loadGolden(scenario);

    beforeAll(async () => {
      server = await startTestServer();
      const full = await createApiToken(server.dir, { name: 'full', type: 'full-access' });
      const ro = await createApiToken(server.dir, { name: 'ro', type: 'read-only' });
      const vars = { fullAccess: full.accessKey, readOnly: ro.accessKey };
      results = await runScenario(server, scenario, vars, notNeeded(scenario, names));
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
    });

    for (const name of names) {
      it(name, () => {
        const want = golden.get(name)!;
        const got = results.get(name)!;
        expect(got.status).toBe(want.response.status);
        expect(new Normaliser().value(got.body)).toEqual(new Normaliser().value(want.response.body));
      });
    }
  });
}

describe('a zone entry without __component on a type without draft & publish', () => {
  let server: TestServer;
  const made = makeProject();
  beforeAll(async () => {
    writeFileSync(
      join(made.contentDir, 'types', 'page.json'),
      JSON.stringify({
        kind: 'collectionType',
        info: { singularName: 'page', pluralName: 'pages', displayName: 'Page' },
        options: { draftAndPublish: false },
        attributes: { name: { type: 'string' }, blocks: { type: 'dynamiczone', components: ['shared.quote'] } },
      }),
    );
    server = await startTestServer({ dir: made.dir });
  });
  afterAll(async () => {
    await server?.stop();
    made.cleanup();
  });

  it('lists the field first, then the entry-wide error with the entry as Strapi has it', async () => {
    const res = await server.api('/api/pages', { method: 'POST', body: { data: { blocks: [{ title: 'x' }] } } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('2 errors occurred');
    expect(res.body.error.details.errors).toEqual([
      {
        path: ['blocks', '0', '__component'],
        message: 'blocks[0].__component is a required field',
        name: 'ValidationError',
      },
      {
        path: [],
        message: 'Cannot build relations store from dynamiczone, component identifier is undefined',
        name: 'ValidationError',
        // Published at once (no draft & publish), and no locale on a type that is not localized.
        value: { publishedAt: expect.stringMatching(/^\d{4}-/), blocks: [{ title: 'x' }] },
      },
    ]);
  });
});
