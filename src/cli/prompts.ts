import { CliError } from './output.js';

type Question = Record<string, unknown>;
/** What an inquirer `validate` returns: true, or the message shown under the answer before asking again. */
export type Check = (answer: string) => true | string;

/**
 * Questions on a terminal. A command asks only when both standard input and output are terminals and
 * neither --json nor --yes is given; otherwise a value the flags leave out is an error naming the flag
 * (or its default is taken), so scripts and CI never wait on a prompt.
 */
export interface Prompts {
  interactive: boolean;
  ask<T>(question: Question): Promise<T>;
  /** The flag's value; else, on a terminal, the answer to `question`; else an error naming the flag. */
  need<T>(value: T | undefined, flag: string, question: Question): Promise<T>;
  /** The flag's value; else, on a terminal, the answer to `question`; else `fallback`. */
  maybe<T>(value: T | undefined, fallback: T, question: Question): Promise<T>;
}

export function prompts(opts: { json?: boolean; yes?: boolean }): Prompts {
  const interactive = process.stdin.isTTY === true && process.stdout.isTTY === true && !opts.json && !opts.yes;
  const ask = async <T>(question: Question): Promise<T> => {
    const { default: inquirer } = await import('inquirer');
    const answers = await inquirer.prompt([{ name: 'value', ...question } as never]);
    return (answers as { value: T }).value;
  };
  return {
    interactive,
    ask,
    async need(value, flag, question) {
      if (value !== undefined) return value;
      if (!interactive) throw new CliError(`${flag} is required when not running in a terminal`);
      return ask(question);
    },
    async maybe(value, fallback, question) {
      if (value !== undefined) return value;
      return interactive ? ask(question) : fallback;
    },
  };
}

/** A `validate` for optional number answers: empty, or a finite number (at least `min` when given). */
export const optionalNumber =
  (min?: number): Check =>
  (answer) => {
    if (answer.trim() === '') return true;
    const n = Number(answer);
    if (!Number.isFinite(n)) return 'Enter a number, or nothing';
    if (min !== undefined && n < min) return `Enter a number of at least ${min}, or nothing`;
    return true;
  };

/** A `validate` from a function that returns the problem of an answer or undefined. */
export const checkWith =
  (problem: (answer: string) => string | undefined): Check =>
  (answer) =>
    problem(answer.trim()) ?? true;
