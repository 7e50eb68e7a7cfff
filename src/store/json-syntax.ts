import { createRequire } from 'node:module';
import type { ParseError } from 'jsonc-parser';

// Loaded on the first broken file only: the start path (reader threads included) parses with JSON.parse.
let jsonc: typeof import('jsonc-parser') | undefined;
const parser = () => (jsonc ??= createRequire(import.meta.url)('jsonc-parser') as typeof import('jsonc-parser'));

/** One syntax error of a JSON text, where an editor shows it (1-based line and column). */
export interface JsonSyntaxError {
  line: number;
  column: number;
  message: string;
}

const WORDS: Record<string, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'expected a property name in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: 'expected ":"',
  CommaExpected: 'expected a comma',
  CloseBraceExpected: 'expected "}"',
  CloseBracketExpected: 'expected "]"',
  EndOfFileExpected: 'unexpected text after the end of the JSON value',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'unterminated comment',
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfNumber: 'unterminated number',
  InvalidUnicode: 'invalid \\u escape',
  InvalidEscapeCharacter: 'invalid escape character',
  InvalidCharacter: 'invalid character in a string',
};

/**
 * Every syntax error of a JSON text (strict JSON: no comments, no trailing commas), with its line and column,
 * rather than the one character offset JSON.parse gives. Empty when the text parses.
 */
export function jsonSyntaxErrors(text: string): JsonSyntaxError[] {
  const { parse, printParseErrorCode } = parser();
  const errors: ParseError[] = [];
  parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  const seen = new Set<string>();
  return errors.flatMap((e) => {
    let line = starts.length - 1;
    while (line > 0 && starts[line] > e.offset) line--;
    const code = printParseErrorCode(e.error);
    const trailing = code === 'PropertyNameExpected' || code === 'ValueExpected';
    const before = text.slice(0, e.offset).trimEnd();
    const found = {
      line: line + 1,
      column: e.offset - starts[line] + 1,
      message: trailing && before.endsWith(',') ? 'trailing comma' : (WORDS[code] ?? code),
    };
    const key = `${found.line}:${found.column}:${found.message}`;
    if (seen.has(key)) return [];
    seen.add(key);
    return [found];
  });
}

/** The first syntax error as `line L, column C: message`, for one-line reports. */
export function describeJsonError(text: string): string | undefined {
  const [first] = jsonSyntaxErrors(text);
  if (!first) return text.trim() === '' ? 'it is empty' : undefined;
  return `line ${first.line}, column ${first.column}: ${first.message}`;
}

/**
 * JSON.parse of a file's text, whose syntax error says where as `folio validate` does (`2:1: invalid JSON:
 * trailing comma`) rather than as a character offset.
 */
export function parseJsonFile(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    const [first] = jsonSyntaxErrors(text);
    if (!first) throw err;
    throw new SyntaxError(`${first.line}:${first.column}: invalid JSON: ${first.message}`, { cause: err });
  }
}
