import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAttributes, makeProject } from './helpers/project.js';
import { spawnServe, type ServeProcess } from './helpers/serve.js';
import { runFolio } from './helpers/cli.js';
import { superLinearPattern } from '../src/schema/regex-check.js';
import { registerStranger } from './helpers/auth.js';

/**
 * ReDoS (issue 31): a content-type's own `regex` is tried on what clients send, bounded to 4,096 characters. A
 * bound keeps a polynomial pattern short, not an exponential one: the slug pattern `^([a-z0-9]+-?)+$`, as common as
 * they come, takes minutes on 30 characters and longer than anyone waits on 40. Any caller who may write the type
 * (here a user who registered a minute ago) stops the server for everybody. Such a pattern is refused when the
 * schema is loaded, and `folio validate` says so.
 */
describe('a schema regex that backtracks exponentially', () => {
  let made: ReturnType<typeof makeProject>;
  let serve: ServeProcess;
  beforeAll(async () => {
    made = makeProject();
    addAttributes(made.contentDir, 'article', { code: { type: 'string', regex: '^([a-z0-9]+-?)+$' } });
    serve = await spawnServe(made.dir);
  }, 60_000);
  afterAll(async () => {
    // The server may still be trying the pattern: killed, not asked.
    await serve?.stop();
    made?.cleanup();
  });

  it('keeps answering others while a value is checked against the pattern', async () => {
    const jwt = await registerStranger(serve.base);
    // Not awaited: the answer may never come.
    let settled = false;
    void fetch(`${serve.base}/api/articles`, {
      method: 'POST',
      headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
      body: JSON.stringify({ data: { title: 'x', code: `${'a'.repeat(40)}!` } }),
    }).then(
      () => (settled = true),
      () => (settled = true),
    );
    // Other clients' health checks, one after another while the write is out, each given far longer than a
    // request takes.
    const answers: Array<number | string> = [];
    for (let i = 0; i < 200 && !settled && !answers.includes('no answer'); i++)
      answers.push(
        await fetch(`${serve.base}/_health`, { signal: AbortSignal.timeout(15_000) }).then(
          (r) => r.status,
          () => 'no answer',
        ),
      );
    expect(answers).not.toContain('no answer');
  });

  it('says at start which pattern it refused, and why', () => {
    expect(serve.stderr()).toMatch(/article\.json: attribute "code": "regex" can take exponential time on a value/);
  });

  it('is reported by folio validate, which exits 1', async () => {
    const r = await runFolio(['validate', '--dir', made.dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^content\/types\/article\.json: code: "regex" can take exponential time/m);
  });
});

describe('the schema check of a regex', () => {
  it.each([
    ['^([a-z0-9]+-?)+$', /exponential time on a value like "aaaa…"/],
    ['^(\\w+\\s?)*$', /exponential time/],
    ['^\\d+\\d+$', /polynomial time .*write it as \^\\d\{2,\}\$, which matches the same values/],
    ['\\s+$', /polynomial time .*anchor it with \^/],
    ['x'.repeat(1001), /longer than 1000 characters/],
  ])('refuses %s', (pattern, message) => {
    expect(superLinearPattern(pattern)).toMatch(message);
  });

  it.each(['^[a-z0-9]+(?:-[a-z0-9]+)*$', '^[A-Za-z0-9-_.~]*$', '^#[0-9a-fA-F]{6}$', '^\\+?[0-9 ()-]{7,20}$', 'abc'])(
    'takes %s, which runs in linear time',
    (pattern) => {
      expect(superLinearPattern(pattern)).toBeUndefined();
    },
  );
});
