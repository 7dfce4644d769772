// The lines of a text stream, split where node:readline splits them (\n, \r\n, a lone \r), except
// that a line longer than `maxChars` is never held: readline gathers any line into one string, and
// one past V8's string limit (~512 Mi characters) threw a RangeError that escaped `rawp validate`
// as a stack trace. Such a line is only counted, and the caller says so (decision 589).
import { StringDecoder } from 'node:string_decoder';

export type InputLine = { text: string } | { tooLong: number };

const BREAK = /[\r\n]/g;

export async function* boundedLines(input: AsyncIterable<string | Buffer>, maxChars: number): AsyncGenerator<InputLine> {
  const decoder = new StringDecoder('utf8');
  let parts: string[] = [];
  let held = 0; // characters of the current line (held in `parts` while ≤ maxChars)
  let over = false;
  let pending = false; // the current line has begun (even if empty so far)
  let skipLf = false; // the last chunk ended with \r: a \n opening the next one belongs to it
  const add = (piece: string): void => {
    held += piece.length;
    pending = true;
    if (over) return;
    if (held > maxChars) {
      over = true;
      parts = [];
    } else if (piece !== '') parts.push(piece);
  };
  const end = (): InputLine => {
    const line: InputLine = over ? { tooLong: held } : { text: parts.length === 1 ? parts[0] : parts.join('') };
    parts = [];
    held = 0;
    over = false;
    pending = false;
    return line;
  };
  const split = function* (s: string): Generator<InputLine> {
    let i = 0;
    if (skipLf && s.startsWith('\n')) i = 1;
    skipLf = false;
    BREAK.lastIndex = i;
    for (let m = BREAK.exec(s); m !== null; m = BREAK.exec(s)) {
      const j = m.index;
      add(s.slice(i, j));
      yield end();
      i = j + 1;
      if (s[j] === '\r') {
        if (i === s.length) skipLf = true;
        else if (s[i] === '\n') i++;
      }
      BREAK.lastIndex = i;
    }
    if (i < s.length) add(s.slice(i));
  };
  for await (const chunk of input) yield* split(typeof chunk === 'string' ? chunk : decoder.write(chunk));
  yield* split(decoder.end());
  if (pending) yield end();
}
