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

if (require.main === module) {
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
