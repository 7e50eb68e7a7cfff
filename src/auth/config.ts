import type { FolioConfig } from '../config.js';
import { DEFAULT_AUTH, type AuthConfig } from './service.js';

export interface RateLimitConfig {
  enabled: boolean;
  interval: number;
  max: number;
}
/** Account e-mails: Folio sends none itself, it writes them to the server's log (see usersHandlers in auth/http.ts). */
export interface AccountMailConfig {
  emailConfirmation: boolean;
  emailConfirmationRedirection: string;
  resetPasswordUrl: string;
}
export interface UsersConfig {
  auth: AuthConfig;
  rateLimit: RateLimitConfig;
  mail: AccountMailConfig;
}

/**
 * The `users` section of folio.json (checked by src/config.ts):
 *   "users": { "jwtManagement": "refresh" | "legacy", "httpOnly": false,
 *              "ratelimit": { "enabled": true, "interval": 60000, "max": 10 } }
 * Lifetimes are Strapi's: access JWT 10 min, refresh token 30 days (14 days idle), legacy JWT 30 days.
 */
export function usersConfig(config: FolioConfig): UsersConfig {
  const u = config.users;
  return {
    auth: { ...DEFAULT_AUTH, jwtManagement: u.jwtManagement, httpOnly: u.httpOnly },
    rateLimit: { ...u.ratelimit },
    mail: {
      emailConfirmation: u.emailConfirmation,
      emailConfirmationRedirection: u.emailConfirmationRedirection,
      resetPasswordUrl: u.resetPasswordUrl,
    },
  };
}
