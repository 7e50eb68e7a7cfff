/**
 * The exit statuses of every `folio` command, in one place so scripts can rely on them:
 * 0 success, 1 a failure (a problem in the project, a refused change, a server error), 2 a usage error
 * (an unknown command or option, a missing argument), 130 interrupted (Ctrl-C, as shells report SIGINT).
 */
export const EXIT = {
  ok: 0,
  error: 1,
  usage: 2,
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
