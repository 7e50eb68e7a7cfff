import { applicationError, validationError } from '../errors.js';
import { newDocumentId, now } from '../documents/model.js';
import { hashPassword, randomKey, verifyPassword } from './crypto.js';
import type { UserRecord } from './state.js';
import { typeMessage } from '../documents/values.js';
import { AuthBase, USER_IDS, unauthorized } from './auth-base.js';
import { isEmail } from './email-address.js';

let guardHash: Promise<string> | undefined;
const timingGuardHash = () => (guardHash ??= hashPassword(randomKey(16)));

/** The accounts part of AuthService: users created, saved, deleted, signed in and given a new password. */
export class AuthAccounts extends AuthBase {
  async createUser(input: {
    username: string;
    email: string;
    password: string;
    role?: string;
    confirmed?: boolean;
    /** The address is vouched for by whoever creates the account (the owner at the CLI). */
    proven?: boolean;
  }): Promise<UserRecord> {
    const username = input.username?.trim();
    const email = input.email?.trim().toLowerCase();
    const problems: Array<{ path: string[]; message: string; value: unknown }> = [];
    if (!username || username.length < 3)
      problems.push({ path: ['username'], message: 'username must be at least 3 characters', value: input.username });
    if (!email || !isEmail(email))
      problems.push({ path: ['email'], message: 'email must be a valid email', value: input.email });
    if (typeof input.password !== 'string' || input.password.length < 6)
      problems.push({ path: ['password'], message: 'password must be at least 6 characters', value: input.password });
    else if (Buffer.byteLength(input.password) > 72) throw validationError('Password must be less than 73 bytes');
    if (problems.length) {
      throw validationError(problems.length === 1 ? problems[0].message : `${problems.length} errors occurred`, {
        errors: problems.map((p) => ({ ...p, name: 'ValidationError' })),
      });
    }
    const password = await hashPassword(input.password);
    // Read, checked and written under a lock shared by processes, with nothing awaited in between: two processes
    // creating users at once (the CLI and a server's register) each keep the other's user.
    return this.usersLock.run(async () => {
      this.state.refresh();
      const users = this.state.users.data.users;
      // As Strapi: an e-mail may not be someone's username either, and the reverse.
      if (
        users.some((u) => u.email === email || u.username === email || u.username === username || u.email === username)
      ) {
        throw applicationError('Email or Username are already taken');
      }
      const t = now();
      const user: UserRecord = {
        id: this.issueId(USER_IDS, users),
        documentId: newDocumentId(),
        username,
        email,
        provider: 'local',
        password,
        confirmed: input.confirmed ?? true,
        blocked: false,
        role: input.role ?? 'authenticated',
        createdAt: t,
        updatedAt: t,
        publishedAt: t,
        ...(input.proven ? { provenEmail: email } : {}),
      };
      users.push(user);
      this.state.users.write();
      return user;
    });
  }

  /**
   * `POST /api/users`, `PUT /api/users/:id`: Strapi's checks (e-mail and username taken by another user,
   * `password.notNull`), e-mails lower-cased, passwords hashed. `role` is a role key already resolved. A block
   * ends the user's sessions, which stay ended after an unblock (Strapi revives them).
   */
  async saveUser(id: number | undefined, input: UserInput): Promise<UserRecord | undefined> {
    const hash = input.password === undefined ? undefined : await hashPassword(input.password);
    // Checked and written under the users' lock, nothing awaited in between: two writes at once (in this process
    // or another) cannot both take one username.
    return this.usersLock.run(async () => {
      this.state.refresh();
      const users = this.state.users.data.users;
      const current = id === undefined ? undefined : users.find((u) => u.id === id);
      if (id !== undefined && !current) return undefined;
      const username = input.username?.trim();
      const email = input.email?.trim().toLowerCase();
      const usernameTaken = username !== undefined && users.some((u) => u.username === username && u !== current);
      // An update says so first; a create checks the e-mail first and meets the username as the user model's
      // unique value, which Strapi answers in its controller's words.
      if (usernameTaken && current) throw applicationError('Username already taken');
      if (email !== undefined && users.some((u) => u.email === email && u !== current))
        throw applicationError('Email already taken');
      if (usernameTaken) throw applicationError('This attribute must be unique');
      const t = now();
      if (!current) {
        const user: UserRecord = {
          id: this.issueId(USER_IDS, users),
          documentId: newDocumentId(),
          username: username!,
          email: email!,
          provider: 'local',
          password: hash!,
          confirmed: input.confirmed ?? false,
          blocked: input.blocked ?? false,
          role: input.role ?? 'authenticated',
          createdAt: t,
          updatedAt: t,
          publishedAt: t,
          // An administrator who says the address is confirmed vouches for it.
          ...(input.confirmed ? { provenEmail: email! } : {}),
        };
        users.push(user);
        this.state.users.write();
        return user;
      }
      if (username !== undefined) current.username = username;
      if (email !== undefined) current.email = email;
      if (input.confirmed !== undefined) current.confirmed = input.confirmed;
      if (input.confirmed === true) current.provenEmail = current.email;
      else if (input.confirmed === false) delete current.provenEmail;
      if (input.blocked !== undefined) current.blocked = input.blocked;
      if (input.role !== undefined) current.role = input.role;
      if (hash !== undefined) current.password = hash;
      current.updatedAt = t;
      this.state.users.write();
      // A new password or a block ends the user's sessions.
      if (hash !== undefined || input.blocked) this.endSessions(current.id);
      return current;
    });
  }

  /** Deletes the user with this numeric id (the REST route: never a username that looks like a number). */
  deleteUserById(id: number): UserRecord | undefined {
    this.state.refresh();
    const user = this.state.users.data.users.find((u) => u.id === id);
    return user ? this.deleteUser(String(user.id)) : undefined;
  }

  deleteUser(idOrName: string): UserRecord | undefined {
    this.state.refresh();
    const users = this.state.users.data.users;
    // An id first: a username may look like another user's id.
    let i = users.findIndex((u) => String(u.id) === idOrName);
    if (i === -1) i = users.findIndex((u) => u.username === idOrName || u.email === idOrName.toLowerCase());
    if (i === -1) return undefined;
    const [gone] = users.splice(i, 1);
    this.state.users.write();
    this.endSessions(gone.id);
    return gone;
  }

  /**
   * E-mail sign-in, as Strapi checks it: the identifier (e-mail or username) and password, then, only when
   * `requireConfirmed` (e-mail confirmation is on), a confirmed address, then that the account is not blocked.
   */
  async login(identifier: unknown, password: unknown, requireConfirmed = false): Promise<UserRecord> {
    if (typeof identifier !== 'string' || !identifier)
      throw validationError('identifier is a required field', {
        errors: [{ path: ['identifier'], message: 'identifier is a required field', name: 'ValidationError' }],
      });
    if (typeof password !== 'string' || !password)
      throw validationError('password is a required field', {
        errors: [{ path: ['password'], message: 'password is a required field', name: 'ValidationError' }],
      });
    this.state.refresh();
    const id = identifier.toLowerCase();
    const user = this.state.users.data.users.find((u) => u.email === id || u.username === identifier);
    // The project's owner has no password anyone knows: it signs in only through one-time links.
    if (!user || this.isOwner(user.id)) {
      // The same scrypt work as for a wrong password, so response times do not tell which accounts exist.
      await verifyPassword(password, await timingGuardHash());
      throw validationError('Invalid identifier or password');
    }
    if (!(await verifyPassword(password, user.password))) throw validationError('Invalid identifier or password');
    if (requireConfirmed && !user.confirmed) throw applicationError('Your account email is not confirmed');
    if (user.blocked) throw applicationError('Your account has been blocked by an administrator');
    return user;
  }

  async changePassword(user: UserRecord, body: Record<string, unknown>): Promise<UserRecord> {
    const { currentPassword, password, passwordConfirmation } = body;
    // Strapi's change-password schema: every field required, the confirmation equal to the password.
    const problems: Array<{ path: string[]; message: string; name: string; value?: unknown }> = [];
    for (const k of ['password', 'passwordConfirmation', 'currentPassword']) {
      const v = body[k];
      if (v === undefined || v === null || v === '')
        problems.push({
          path: [k],
          message: `${k} is a required field`,
          name: 'ValidationError',
          value: v ?? undefined,
        });
      else if (typeof v !== 'string')
        problems.push({ path: [k], message: typeMessage(k, 'string', v), name: 'ValidationError', value: v });
    }
    if (!problems.length && password !== passwordConfirmation)
      problems.push({
        path: ['passwordConfirmation'],
        message: 'Passwords do not match',
        name: 'ValidationError',
        value: passwordConfirmation,
      });
    if (problems.length)
      throw validationError(problems.length === 1 ? problems[0].message : `${problems.length} errors occurred`, {
        errors: problems,
      });
    if (typeof password !== 'string' || typeof currentPassword !== 'string') throw validationError('Invalid body');
    if (!(await verifyPassword(currentPassword, user.password)))
      throw validationError('The provided current password is invalid');
    if (currentPassword === password)
      throw validationError('Your new password must be different than your current password');
    if (password.length < 6) throw validationError('password must be at least 6 characters');
    const hash = await hashPassword(password);
    this.state.refresh();
    const stored = this.state.users.data.users.find((u) => u.id === user.id);
    if (!stored) throw unauthorized('Invalid credentials');
    stored.password = hash;
    stored.updatedAt = now();
    this.state.users.write();
    // A new password ends every session: whoever else held one must log in again.
    this.endSessions(stored.id);
    return stored;
  }
}

/** The writable fields of a user (`POST`/`PUT /api/users`), already checked for type. */
export interface UserInput {
  username?: string;
  email?: string;
  password?: string;
  confirmed?: boolean;
  blocked?: boolean;
  role?: string;
}
