// `rawp validate [FILE] [--json]`: reads DPS frames as JSON lines from FILE or stdin and reports
// every schema and sequence problem. The checking itself lives in src/protocol/conformance
// (pure); this file only reads input and prints.
import { open } from 'node:fs/promises';
import { CODES, PROBLEM_CODES, StreamValidator, formatJson, formatText } from '../../protocol/conformance';
import { boundedLines } from '../boundedLines';
import type { Verb, VerbIo } from '../verb';

/** Longer lines are reported, not read: no RAWP frame is near this size (the engine's default
 * max_frame_size is 4 MiB), and one string can hold at most ~512 Mi characters. */
export const MAX_LINE_CHARS = 128 * 1024 * 1024;

function help(): string {
  const width = Math.max(...PROBLEM_CODES.map((c) => c.length));
  return [
    'Usage: rawp validate [FILE] [--json]',
    '',
    'Checks RAWP-DPS 1.0 frames, one JSON object per line (stdin when FILE is absent or "-";',
    'blank lines are skipped), against the frame schemas and the sequence rules of each session.',
    '',
    'Output: one `LINE:CODE: message` per problem, then `frames: N, errors: E, warnings: W`.',
    '  --json   one JSON document {frames, errors, warnings, problems: [{line, code, severity,',
    '           clause, message, session_id?, message_id?}]} instead.',
    'Exit status: 0 no errors (warnings allowed), 1 errors found, 2 usage error or unreadable input.',
    '',
    'Codes (E error, W warning):',
    ...PROBLEM_CODES.map((c) => `  ${c.padEnd(width)}  ${CODES[c].severity === 'error' ? 'E' : 'W'}  ${CODES[c].clause.padEnd(7)} ${CODES[c].summary}`),
    '',
    'A stream that ends mid-turn is reported once (TURN_OPEN_AT_END); tool calls, text blocks and',
    'interactions still pending in that turn are not reported again. A stream may also start',
    'mid-session (a late attach): a turn begun before it is followed from its first frame on. The',
    'frames inside a session.history are checked as if they stood at its line, in timestamp order,',
    'ties by message_id (§2.3, §7.8.3). The log is read in the client\'s order (one connection, as',
    'the hub or a master recorded it). Every problem names the clause it breaks. A line longer than',
    `${MAX_LINE_CHARS / 1024 / 1024} Mi characters is reported (INVALID_ENVELOPE) without being read.`,
  ].join('\n');
}

interface Args {
  file?: string;
  json: boolean;
}

function parseArgs(argv: string[]): Args | string {
  const args: Args = { json: false };
  for (const a of argv) {
    if (a === '--json') args.json = true;
    else if (a.startsWith('-') && a !== '-') return `unknown option ${a}`;
    else if (args.file !== undefined) return `one FILE at most (got ${args.file} and ${a})`;
    else args.file = a;
  }
  return args;
}

async function openInput(file: string | undefined, io: VerbIo): Promise<NodeJS.ReadableStream> {
  if (file === undefined || file === '-') return io.stdin;
  // Open first so a missing or unreadable file is a clear usage error, not a stream event.
  const handle = await open(file, 'r');
  return handle.createReadStream({ encoding: 'utf8' });
}

export const validateVerb: Verb = {
  name: 'validate',
  summary: 'check RAWP-DPS frames (JSON lines) against the schemas and sequence rules',
  get help() {
    return help();
  },
  async run(argv, io) {
    const args = parseArgs(argv);
    if (typeof args === 'string') {
      io.stderr.write(`rawp validate: ${args}\nUsage: rawp validate [FILE] [--json]\n`);
      return 2;
    }
    const validator = new StreamValidator();
    try {
      const input = await openInput(args.file, io);
      let n = 0;
      // A byte order mark (Windows editors write one) is not part of the first frame.
      for await (const line of boundedLines(input as AsyncIterable<string | Buffer>, MAX_LINE_CHARS)) {
        n++;
        if ('tooLong' in line) validator.tooLong(line.tooLong, MAX_LINE_CHARS, n);
        else validator.line(n === 1 ? line.text.replace(/^\ufeff/, '') : line.text, n);
      }
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      const what = args.file === undefined || args.file === '-' ? 'stdin' : args.file;
      const reason = err.code === 'ENOENT' ? 'no such file' : err.code === 'EISDIR' ? 'is a directory' : err.message;
      io.stderr.write(`rawp validate: cannot read ${what}: ${reason}\n`);
      return 2;
    }
    const result = validator.finish();
    io.stdout.write(args.json ? formatJson(result) : formatText(result));
    return result.errors > 0 ? 1 : 0;
  },
};
