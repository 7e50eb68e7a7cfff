/** Documents a write reads from their files and edits between two turns of the event loop. */
const READS_PER_TURN = 32;
/** How many documents looked through in memory cost about as much as one read from its file. */
export const LOOKS_PER_READ = 1 / 64;

/**
 * A write that edits many documents (all those linking one deleted) lets requests be answered between every few
 * of them: `await pause(cost)` before each, a turn of the event loop taken once their costs reach READS_PER_TURN.
 */
export function pauser(): (cost: number) => Promise<void> | undefined {
  let spent = 0;
  return (cost) => {
    spent += cost;
    if (spent < READS_PER_TURN) return undefined;
    spent = 0;
    return new Promise((resolve) => setImmediate(resolve));
  };
}
