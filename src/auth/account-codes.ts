import { applicationError, validationError } from '../errors.js';
import { now } from '../documents/model.js';
import { hashPassword, hmac, randomKey } from './crypto.js';
import type { UserRecord } from './state.js';
import { AuthAccounts } from './accounts.js';

/** The one-time codes of AuthService: password reset codes and e-mail confirmation tokens. */
export class AuthAccountCodes extends AuthAccounts {
  /**
   * `POST /api/auth/forgot-password`: a fresh reset code for the account of `email` (only its HMAC is
   * kept). Undefined for unknown or blocked accounts, and for the project's owner, which is never signed into
   * with a password (the code would be written to the server's log): the route answers the same either way.
   */
  startPasswordReset(email: string): { user: UserRecord; code: string } | undefined {
    this.state.refresh();
    const user = this.state.users.data.users.find((u) => u.email === email.toLowerCase());
    if (!user || user.blocked || this.isOwner(user.id)) return undefined;
    const code = randomKey(64);
    user.resetPasswordToken = hmac(this.state.secrets.tokenSalt, code);
    this.state.users.write();
    return { user, code };
  }

  /** `POST /api/auth/reset-password`: the code is used once; every session of the user ends. */
  async resetPassword(body: Record<string, unknown>): Promise<UserRecord> {
    const { code, password, passwordConfirmation } = body;
    const required = (['code', 'password', 'passwordConfirmation'] as const).filter(
      (k) => typeof body[k] !== 'string' || !body[k],
    );
    if (required.length) {
      const problems = required.map((k) => ({
        path: [k],
        message: `${k} is a required field`,
        name: 'ValidationError',
      }));
      throw validationError(problems.length === 1 ? problems[0].message : `${problems.length} errors occurred`, {
        errors: problems,
      });
    }
    if (password !== passwordConfirmation) throw validationError('Passwords do not match');
    if ((password as string).length < 6) throw validationError('password must be at least 6 characters');
    const hash = await hashPassword(password as string);
    const user = this.userWithToken('resetPasswordToken', code as string);
    if (!user || this.isOwner(user.id)) throw validationError('Incorrect code provided');
    user.password = hash;
    user.resetPasswordToken = null;
    user.updatedAt = now();
    this.state.users.write();
    this.endSessions(user.id);
    return user;
  }

  /** A fresh e-mail confirmation token for a user (only its HMAC is kept). */
  startEmailConfirmation(user: UserRecord): string {
    this.state.refresh();
    const stored = this.state.users.data.users.find((u) => u.id === user.id);
    if (!stored) throw applicationError('User not found');
    const token = randomKey(20);
    stored.confirmationToken = hmac(this.state.secrets.tokenSalt, token);
    this.state.users.write();
    return token;
  }

  /** `GET /api/auth/email-confirmation`: confirms the account the token was made for. */
  confirmEmail(token: unknown): UserRecord {
    if (typeof token !== 'string' || !token) throw validationError('Invalid token');
    const user = this.userWithToken('confirmationToken', token);
    if (!user) throw validationError('Invalid token');
    user.confirmed = true;
    // The link went to this address: whoever followed it receives its mail.
    user.provenEmail = user.email;
    user.confirmationToken = null;
    user.updatedAt = now();
    this.state.users.write();
    return user;
  }
}
