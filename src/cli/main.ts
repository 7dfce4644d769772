// `rawp` — the command-line face of the engine. Dispatches to one file per verb.
import type { Verb, VerbIo } from './verb';
import { verbs } from './verbs';

export function usage(): string {
  const width = Math.max(...verbs.map((v) => v.name.length));
  return [
    'Usage: rawp <verb> [options]',
    '',
    'Verbs:',
    ...verbs.map((v) => `  ${v.name.padEnd(width)}  ${v.summary}`),
    '',
    'Run `rawp <verb> --help` for the options of one verb.',
  ].join('\n');
}

export async function runCli(argv: string[], io: VerbIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(usage() + '\n');
    return name ? 0 : 2;
  }
  const verb: Verb | undefined = verbs.find((v) => v.name === name);
  if (!verb) {
    io.stderr.write(`rawp: unknown verb "${name}"\n\n${usage()}\n`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(verb.help.trimEnd() + '\n');
    return 0;
  }
  try {
    return await verb.run(rest, io);
  } catch (e) {
    io.stderr.write(`rawp ${name}: ${(e as Error).message}\n`);
    return 2;
  }
}

/**
 * A reader that goes away (`rawp validate big.jsonl | head -1`) makes the next write fail with
 * EPIPE, an 'error' event that Node throws with a stack trace when no one listens. A Unix tool
 * stops quietly there, as SIGPIPE would stop it (exit 141). Verbs that must do more first listen
 * themselves (`run` cancels its turn and ends the agent's processes; `serve` keeps serving), and
 * then this one leaves it to them. Any other write error is said in one line.
 */
export function stopQuietlyOnBrokenPipe(stream: NodeJS.WritableStream, exit: (code: number) => void = (code) => process.exit(code), say: (line: string) => void = (line) => process.stderr.write(line)): void {
  const onError = (e: NodeJS.ErrnoException) => {
    if (stream.listenerCount('error') > 1) return;
    if (e.code === 'EPIPE') return exit(141);
    try {
      say(`rawp: cannot write the output: ${e.message}\n`);
    } catch {
      // stderr itself is gone: nothing more to say.
    }
    exit(2);
  };
  stream.on('error', onError);
}

if (require.main === module) {
  stopQuietlyOnBrokenPipe(process.stdout);
  stopQuietlyOnBrokenPipe(process.stderr);
  runCli(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }).then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      process.stderr.write(`rawp: ${(e as Error).stack ?? e}\n`);
      process.exitCode = 2;
    },
  );
}
