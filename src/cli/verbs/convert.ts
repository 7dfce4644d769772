// `rawp convert --from <agent> [FILE]`: a captured native agent transcript (JSON lines) -> DPS
// frames as JSON lines, ready for `rawp validate`. The translation is the live adapter's own
// (src/agents/<agent>/convert.ts); this file only reads, dispatches and prints. The input is read,
// converted and written as it comes (decision 726): src/agents/convert/stream.ts.
import { open, type FileHandle } from 'node:fs/promises';
import { convertStream, getConverter, InputReadError, listConverters, type NativeConverter } from '../../agents/convert';
import type { Verb, VerbIo } from '../verb';
import type { ConvertOptions } from '../../agents/convert';
import { Id } from '../../protocol/common';
import { AGENT_LINE_MAX_DEPTH, MAX_LINE_CHARS } from '../../agents/process/jsonLines';

function help(): string {
  const list = listConverters();
  const width = Math.max(...list.map((c) => c.id.length));
  return [
    'Usage: rawp convert --from AGENT [FILE] [--session-id ID] [--workspace DIR]',
    '',
    'Reads a captured native transcript (FILE, or stdin when FILE is absent or "-") and writes the',
    'RAWP-DPS 1.0 frames the live adapter would have produced, one JSON object per line. The input is',
    'read line by line and frames are written as they are made, so an input of any size can be converted',
    '(and a running agent\'s output piped in is converted as it comes).',
    'Lines that cannot be used are reported on stderr as `convert: LINE: reason` and skipped; a line',
    `is not read at all when it nests arrays and objects deeper than ${AGENT_LINE_MAX_DEPTH} levels or is longer than`,
    `${MAX_LINE_CHARS.toLocaleString('en-US')} characters (the live adapters skip such a line too).`,
    '',
    'Agents (--from):',
    ...list.map((c) => `  ${c.id.padEnd(width)}  ${c.input}`),
    '',
    'Options:',
    '  --session-id ID   session_id of the frames (default: a new UUID v4)',
    '  --workspace DIR   the workspace the transcript was recorded in (for relative paths)',
    '',
    'Exit status: 0 converted, 1 nothing in the input could be converted (no frames are written),',
    '2 usage error or unreadable input.',
  ].join('\n');
}

interface Args {
  from?: string;
  file?: string;
  session_id?: string;
  workspace?: string;
}

function parseArgs(argv: string[]): Args | string {
  const args: Args = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = (): string | undefined => {
      const eq = a.indexOf('=');
      if (eq > 0) return a.slice(eq + 1);
      i++;
      return argv[i];
    };
    const name = a.includes('=') ? a.slice(0, a.indexOf('=')) : a;
    if (name === '--from') args.from = value();
    else if (name === '--session-id') args.session_id = value();
    else if (name === '--workspace') args.workspace = value();
    else if (a.startsWith('-') && a !== '-') return `unknown option ${a}`;
    else if (args.file !== undefined) return `one FILE at most (got ${args.file} and ${a})`;
    else args.file = a;
  }
  if (args.session_id !== undefined && !Id.safeParse(args.session_id).success) return '--session-id must not be empty (it becomes every frame\'s session_id)';
  if (!args.from) return `--from is required (one of: ${listConverters().map((c) => c.id).join(', ')})`;
  return args;
}

/** A regular file up to this size is read whole and converted here: starting the conversion thread costs more. */
export const WHOLE_FILE_MAX_BYTES = 4 * 1024 * 1024;

/** The input converted whole (a small file): its text, a byte order mark not part of the first line. */
function convertWhole(converter: NativeConverter, text: string, options: ConvertOptions, io: VerbIo, opening: number): number {
  const result = converter.convert(text.replace(/^\ufeff/, '').split(/\r?\n/), options);
  for (const w of result.warnings) io.stderr.write(`convert: ${w.line}: ${w.message}\n`);
  if (result.frames.length <= opening) return nothingConverted(converter, io);
  for (const f of result.frames) io.stdout.write(JSON.stringify(f) + '\n');
  return 0;
}

/**
 * The input streamed: frames are written as they are made, after the opening a converter writes for
 * no input at all has been passed (until then they are held, so input with nothing to convert
 * still writes nothing). Each write waits for stdout to drain before more input is read.
 */
async function convertStreamed(converter: NativeConverter, input: AsyncIterable<Buffer | string>, options: ConvertOptions, io: VerbIo, opening: number): Promise<number> {
  let made = 0;
  let held: string[] | undefined = [];
  await convertStream(converter.id, options, input, {
    warn: (warnings) => {
      for (const w of warnings) io.stderr.write(`convert: ${w.line}: ${w.message}\n`);
    },
    write: async (pieces, count) => {
      made += count;
      if (held) {
        held.push(...pieces);
        if (made <= opening) return;
        pieces = held;
        held = undefined;
      }
      for (const piece of pieces) if (!io.stdout.write(piece)) await drained(io.stdout);
    },
  });
  return held ? nothingConverted(converter, io) : 0;
}

/** Only the opening a converter writes for no input at all: nothing was converted, and a stream of
 * those frames would look like a session that did nothing (exit 0 said "converted" before). */
function nothingConverted(converter: NativeConverter, io: VerbIo): number {
  io.stderr.write(`rawp convert: nothing in the input could be read as --from ${converter.id} (${converter.input}); no frames were written\n`);
  return 1;
}

/**
 * Resolves when `stream` drains, or closes (a failed stream closes: it will not drain then). Its
 * error is not listened to here: the CLI's own handler (main.ts `stopQuietlyOnBrokenPipe`) stops
 * quietly with 141 on EPIPE only while it is the one listener — one more here made it stand aside,
 * and a convert whose reader went away ran on to exit 0.
 */
function drained(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

export const convertVerb: Verb = {
  name: 'convert',
  summary: 'turn a captured native agent transcript (claude-code, codex, acp, gemini) into DPS frames',
  get help() {
    return help();
  },
  async run(argv, io) {
    const args = parseArgs(argv);
    if (typeof args === 'string') {
      io.stderr.write(`rawp convert: ${args}\n\n${help()}\n`);
      return 2;
    }
    const converter = getConverter(args.from!);
    if (!converter) {
      io.stderr.write(`rawp convert: unknown agent "${args.from}" (known: ${listConverters().map((c) => c.id).join(', ')})\n`);
      return 2;
    }
    const options: ConvertOptions = { session_id: args.session_id, workspacePath: args.workspace };
    const opening = converter.convert([], options).frames.length;
    const cannotRead = (e: unknown) => {
      io.stderr.write(`rawp convert: cannot read ${args.file ?? 'stdin'}: ${(e as Error).message}\n`);
      return 2;
    };
    let file: FileHandle | undefined;
    if (args.file !== undefined && args.file !== '-') {
      try {
        file = await open(args.file, 'r');
        const stat = await file.stat();
        if (stat.isFile() && stat.size <= WHOLE_FILE_MAX_BYTES) {
          const text = await file.readFile('utf8');
          await file.close();
          return convertWhole(converter, text, options, io, opening);
        }
      } catch (e) {
        await file?.close().catch(() => undefined);
        return cannotRead(e);
      }
    }
    try {
      // A file's stream closes the file when it ends or is stopped.
      const input = file ? file.createReadStream() : io.stdin;
      return await convertStreamed(converter, input as AsyncIterable<Buffer | string>, options, io, opening);
    } catch (e) {
      if (e instanceof InputReadError) return cannotRead(e);
      throw e;
    }
  },
};
