/**
 * How long a test waits for a state the product promises "within a second" (the API following the files): far
 * more than a second, so that a correct server on a loaded machine (two cores shared by many processes, a busy CI
 * runner) never fails, and less than a test's own timeout, so that a server that never gets there fails naming
 * what it did not do. How fast it gets there is the bench's business, not a test's.
 */
export const SETTLES_MS = 10_000;

/** Polls `check` until it holds; fails naming `what` once `ms` have gone by without it. */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  what: string,
  ms: number = SETTLES_MS,
): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    if (await check()) return;
    if (Date.now() > end) throw new Error(`not seen within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
