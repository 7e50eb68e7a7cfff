// Preloaded into `folio serve` by tests (NODE_OPTIONS=--import): writing a stdout line that holds
// FOLIO_TEST_FAULT throws, so a watcher callback that reports a change fails as a bug in it would.
const fault = process.env.FOLIO_TEST_FAULT;
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  if (fault && String(chunk).includes(fault)) throw new Error(`injected fault: ${fault}`);
  return write(chunk, ...rest);
};
