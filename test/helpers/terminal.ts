import { spawn } from 'node:child_process';

/** util-linux `script` gives the command a real pseudo-terminal (the same one a person's shell has). */
export { hasScript } from './requirements.js';

/** One exchange: wait until `wait` shows (after what the previous steps matched), then type `send`. */
export interface Step {
  wait: RegExp;
  send: string;
}

export const ENTER = '\r';
export const DOWN = '\x1b[B';
export const CTRL_C = '\x03';
export const erase = (n: number) => '\x7f'.repeat(n);

/**
 * Runs `command` in a pseudo-terminal and answers its prompts as a person would: each answer is typed
 * only once its question is on screen (keys sent before a prompt listens are lost). Resolves with what
 * the terminal showed (ANSI sequences stripped) and the exit status, or rejects naming the step that
 * never came.
 */
export function inTerminal(
  command: string,
  steps: Step[],
  timeoutMs = 40_000,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    // A new pseudo-terminal is 80 columns wide whatever COLUMNS says: stty gives it the width COLUMNS claims.
    const child = spawn('script', ['-qefc', `stty cols 200 rows 50; ${command}`, '/dev/null'], {
      env: { ...process.env, NO_COLOR: '1', COLUMNS: '200', LINES: '50' },
    });
    let raw = '';
    let from = 0;
    let i = 0;
    const clean = () =>
      raw
        // eslint-disable-next-line no-control-regex
        .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
        .replace(/\r/g, '');
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`step ${i} (${steps[i]?.wait}) never showed; the terminal had:\n${clean()}`));
    }, timeoutMs);
    const advance = () => {
      while (i < steps.length) {
        const text = clean();
        const m = steps[i].wait.exec(text.slice(from));
        if (!m) return;
        from += m.index + m[0].length;
        child.stdin.write(steps[i].send);
        i++;
      }
    };
    child.stdout.on('data', (d: Buffer) => {
      raw += d.toString();
      advance();
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (i < steps.length) reject(new Error(`exited (${code}) before step ${i} (${steps[i].wait}):\n${clean()}`));
      else resolve({ code, out: clean() });
    });
  });
}
