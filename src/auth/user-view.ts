import type { UserRecord } from './state.js';

/** The users' view Strapi returns: private fields (password, tokens, role unless populated) left out. */
export function sanitizeUser(u: UserRecord) {
  return {
    id: u.id,
    documentId: u.documentId,
    username: u.username,
    email: u.email,
    provider: u.provider,
    confirmed: u.confirmed,
    blocked: u.blocked,
    createdAt: u.createdAt,
    updatedAt: u.updatedAt,
    publishedAt: u.publishedAt,
  };
}
