import { spawnGit, type GitOptions } from './run.js';

/**
 * The git runner: a small process of its own that starts the git commands a server sends it (see
 * git-runner.ts). Starting a process copies the starter's memory map, which takes milliseconds in a server
 * holding a large index and stops its event loop meanwhile; here it is cheap, and no request waits on it.
 */
interface Request {
  id: number;
  cwd: string;
  args: string[];
  opts: GitOptions;
}

process.on('message', (req: Request) => {
  void spawnGit(req.cwd, req.args, req.opts).then((result) => process.send?.({ id: req.id, result }));
});
// The server is gone: nothing is left to run for.
process.on('disconnect', () => process.exit(0));
