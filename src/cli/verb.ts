// The shape of one `rawp` CLI verb: each lives in its own file under verbs/.
export interface VerbIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export interface Verb {
  name: string;
  /** One line for the verb list. */
  summary: string;
  /** Full `--help` text. */
  help: string;
  /** Runs the verb; resolves to the process exit code. */
  run(argv: string[], io: VerbIo): Promise<number>;
}
