import type { FolioConfig } from '../config.js';

export type JwtMode = 'refresh' | 'legacy';
export interface AuthConfig {
  jwtManagement: JwtMode;
  httpOnly: boolean;
  accessTtlSeconds: number;
  legacyTtlSeconds: number;
  refreshTtlDays: number;
  refreshIdleDays: number;
}

export const DEFAULT_AUTH: AuthConfig = {
  jwtManagement: 'refresh',
  httpOnly: true,
  accessTtlSeconds: 10 * 60,
  legacyTtlSeconds: 30 * 24 * 3600,
  refreshTtlDays: 30,
  refreshIdleDays: 14,
};

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
