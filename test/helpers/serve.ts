import { type ChildProcess, spawn } from 'node:child_process';
import { BIN } from './project.js';

/** `folio serve` in a process of its own, on a free port, as a user runs it (watching content/). */
export async function serveProcess(dir: string): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--dir', dir, '--port', '0', '--host', '127.0.0.1'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
      const m = /(http:\/\/127\.0\.0\.1:\d+)\/api /.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`folio serve exited with ${code} before it was ready`)));
  });
  return { child, base };
}
