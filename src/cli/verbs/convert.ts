// `rawp convert --from <agent> [FILE]`: a captured native agent transcript (JSON lines) -> DPS
// frames as JSON lines, ready for `rawp validate`. The translation is the live adapter's own
// (src/agents/<agent>/convert.ts); this file only reads, dispatches and prints.
import { readFile } from 'node:fs/promises';
import { getConverter, listConverters } from '../../agents/convert';
import type { Verb, VerbIo } from '../verb';
import { Id } from '../../protocol/common';
import { AGENT_LINE_MAX_DEPTH, MAX_LINE_CHARS } from '../../agents/process/jsonLines';

function help(): string {
  const list = listConverters();
  const width = Math.max(...list.map((c) => c.id.length));
  return [
    'Usage: rawp convert --from AGENT [FILE] [--session-id ID] [--workspace DIR]',
    '',
    'Reads a captured native transcript (FILE, or stdin when FILE is absent or "-") and writes the',
    'RAWP-DPS 1.0 frames the live adapter would have produced, one JSON object per line.',
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

/** The input's text; a byte order mark (Windows editors write one) is not part of the first line. */
async function readInput(file: string | undefined, io: VerbIo): Promise<string> {
  return (await readWhole(file, io)).replace(/^\ufeff/, '');
}

async function readWhole(file: string | undefined, io: VerbIo): Promise<string> {
  if (file !== undefined && file !== '-') return readFile(file, 'utf8');
  const chunks: Buffer[] = [];
  for await (const c of io.stdin) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return Buffer.concat(chunks).toString('utf8');
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
    let text: string;
    try {
      text = await readInput(args.file, io);
    } catch (e) {
      io.stderr.write(`rawp convert: cannot read ${args.file}: ${(e as Error).message}\n`);
      return 2;
    }
    const options = { session_id: args.session_id, workspacePath: args.workspace };
    const result = converter.convert(text.split(/\r?\n/), options);
    for (const w of result.warnings) io.stderr.write(`convert: ${w.line}: ${w.message}\n`);
    // Only the opening a converter writes for no input at all: nothing was converted, and a stream
    // of those frames would look like a session that did nothing (exit 0 said "converted" before).
    if (result.frames.length <= converter.convert([], options).frames.length) {
      io.stderr.write(`rawp convert: nothing in the input could be read as --from ${converter.id} (${converter.input}); no frames were written\n`);
      return 1;
    }
    for (const f of result.frames) io.stdout.write(JSON.stringify(f) + '\n');
    return 0;
  },
};
