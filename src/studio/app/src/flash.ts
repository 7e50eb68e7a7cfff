let pending = '';

/** A message for the next screen (a save that opens the new document's address, a delete that goes back). */
export const flash = {
  set(message: string) {
    pending = message;
  },
  take(): string {
    const m = pending;
    pending = '';
    return m;
  },
};
