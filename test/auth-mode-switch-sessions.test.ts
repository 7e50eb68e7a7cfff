import { afterAll, describe, expect, it } from 'vitest';
import { AuthService, DEFAULT_AUTH } from '../src/auth/service.js';
import { makeProject } from './helpers/project.js';

/**
 * A running server follows folio.json's `users.jwtManagement`. An access token issued in refresh mode belongs to a
 * session: once that session is ended (sign-out, a new password), the token must stay refused after a switch to
 * legacy mode too, where tokens without a session are the rule.
 */
describe('switching users.jwtManagement from refresh to legacy', () => {
  const made = makeProject();
  afterAll(() => made.cleanup());

  it('keeps refusing an access token whose session was ended, and accepts legacy tokens', async () => {
    let mode: 'refresh' | 'legacy' = 'refresh';
    const auth = new AuthService(made.dir, () => ({ ...DEFAULT_AUTH, jwtManagement: mode }));
    const user = await auth.createUser({ username: 'ada', email: 'ada@example.com', password: 'pw-123456' });
    const { jwt } = await auth.issue(user, null);
    const signedIn = await auth.verifyJwt(jwt);
    expect(signedIn?.user.id).toBe(user.id);
    // Signing out ends the session.
    expect(auth.revokeSession(user.id, signedIn!.sessionId!)).toBe(true);
    expect(await auth.verifyJwt(jwt)).toBeUndefined();

    mode = 'legacy';
    expect(await auth.verifyJwt(jwt)).toBeUndefined();
    const legacy = await auth.issue(user, null);
    expect((await auth.verifyJwt(legacy.jwt))?.user.id).toBe(user.id);
    // And back: a legacy token (no session) is refused in refresh mode.
    mode = 'refresh';
    expect(await auth.verifyJwt(legacy.jwt)).toBeUndefined();
  });
});
