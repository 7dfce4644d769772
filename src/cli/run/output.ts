// How `rawp run` reports (§6.1.1 `output_format`): `text` prints the answer, `json` one object,
// `stream-json` every DPS frame of the conversation as it happens (both directions, one JSON line
// each: a log `rawp validate` accepts). Whatever the format, questions the run answered for the
// absent user and the agent's errors go to stderr, one line each. Text from the agent, its tools
// and files (answers, messages, questions) goes to a terminal with its control characters shown,
// not obeyed (showControls, as `rawp attach` does): a file named with an escape sequence must not
// recolour, retitle or clear the terminal, or write its clipboard (OSC 52). JSON escapes them itself.
import type { WireFrame } from '../../protocol/frameTypes';
import { showControls as shown } from '../controlPictures';
import { hostNoticeIn, type HostLanguage } from '../../protocol/hostPhrases';
import { releaseStructuredOutput, type Revalidate } from '../../protocol/structuredOutput';
import { AjvSchemaValidator } from '../../host/jsonSchemaValidator';
import type { HeadlessResult, Unanswered } from '../../host/headlessRun';
import { cutMessage } from '../../host/runErrors';
import { cutAt } from '../../protocol/cutText';
import type { VerbIo } from '../verb';

export type OutputFormat = 'text' | 'json' | 'stream-json';

export function frameLine(io: VerbIo, frame: WireFrame): void {
  io.stdout.write(`${JSON.stringify(frame)}\n`);
}

export function unansweredLine(io: VerbIo, u: Unanswered): void {
  const input = u.tool_input ? ` ${clip(JSON.stringify(u.tool_input), 200)}` : '';
  if (u.kind === 'permission_denied') io.stderr.write(`rawp run: permission denied: ${shown(clip(u.tool_name ?? 'a tool', 200))}${shown(input)} (no --allow rule or saved rule allows it)\n`);
  else if (u.kind === 'tool_not_allowed') io.stderr.write(`rawp run: tool not allowed: ${shown(clip(u.tool_name ?? 'a tool', 200))} (--allowed-tools, --denied-tools or the mode refused it)\n`);
  else io.stderr.write(`rawp run: unanswered question (nobody can answer in a headless run; it was closed unanswered): ${shown(clip(u.question, 200))}\n`);
}

/** Characters of one message on stderr: what an agent says can be megabytes (a 20 MB error was one 20 MB line). */
export const STDERR_MESSAGE_CHARS = 2000;

export function errorLines(io: VerbIo, r: HeadlessResult, lang: HostLanguage): void {
  const said = (text: string, max = STDERR_MESSAGE_CHARS) => shown(cutMessage(text, max));
  for (const e of r.errors) io.stderr.write(`rawp run: ${e.source} ${e.severity === 'warning' ? 'warning' : 'error'} ${said(e.error_code, 100)}: ${said(e.message)}\n`);
  // A prompt the host answered itself (/help) prints its answer as the run's; other notices are remarks.
  for (const n of r.notices) if (n.level !== 'error' && !(handledByHost(r) && n.level === 'info')) io.stderr.write(`rawp run: ${n.level}: ${said(hostNoticeIn(n, lang))}\n`);
}

/** No turn ran, nothing failed, and the host said something: a host command such as /help. */
function handledByHost(r: HeadlessResult): boolean {
  return r.turn_id === undefined && r.errors.length === 0 && r.notices.length > 0;
}

/**
 * The one object of `--output-format json`. Beside ours, the fields scripts written for `claude -p
 * --output-format json` read: is_error (exactly when the exit code is not 0), num_turns,
 * duration_ms, and the agent's own session id for its own resume (decision 619). The command files
 * that did not load are there too, `[]` when none (decision 731): a script could not otherwise
 * tell that `/mycmd` went to the agent as plain text. The host lists at most UNLOADED_LISTED_MAX
 * (20) of them; `unloaded_command_files_total` counts them all.
 */
export function resultObject(r: HeadlessResult, schemaRequested: boolean): Record<string, unknown> {
  return {
    is_error: exitCodeOf(r, schemaRequested) !== 0,
    session_id: r.session_id,
    agent_session_id: r.agent_session_id ?? null,
    ...(r.tool_outputs ? { tool_outputs: r.tool_outputs.outputs } : {}),
    turn_id: r.turn_id ?? null,
    stop_reason: r.stop_reason ?? null,
    text: r.text,
    structured_output: r.structured_output ?? null,
    usage: r.usage ?? null,
    permission_denials: r.permission_denials,
    errors: r.errors,
    notices: r.notices,
    num_turns: r.num_turns,
    duration_ms: r.duration_ms,
    unloaded_command_files: r.unloaded_commands?.files ?? [],
    unloaded_command_files_total: r.unloaded_commands?.total ?? 0,
  };
}

/**
 * `text` with --json-schema prints the structured data as one JSON line (as `claude -p` does),
 * ready for jq — only data that passes (§15.4: `failed` or `partial` data is validated again
 * against the requested schema before it goes downstream; what does not pass is not printed).
 * `json` prints the object with its validation_status as the client sent it.
 */
/** `lang`: the host's notices in text output (json keeps the English `message` beside its `words`). */
export function printResult(io: VerbIo, format: OutputFormat, r: HeadlessResult, lang: HostLanguage, schema?: Record<string, unknown>): void {
  if (format === 'json') io.stdout.write(`${JSON.stringify(resultObject(r, schema !== undefined))}\n`);
  else if (format === 'text' && r.structured_output) {
    const release = releaseStructuredOutput(r.structured_output, schema ? revalidateAgainst(schema) : undefined);
    if (release.released) io.stdout.write(`${JSON.stringify(release.data)}\n`);
    else io.stderr.write(`rawp run: the structured output is not printed: ${shown(release.reason)}\n`);
  }
  else if (format === 'text' && r.tool_outputs && r.tool_outputs.outputs.length > 0) printToolOutputs(io, r, r.tool_outputs);
  else if (format === 'text' && r.text) io.stdout.write(shown(r.text.endsWith('\n') ? r.text : `${r.text}\n`));
  else if (format === 'text' && handledByHost(r)) for (const n of r.notices) if (n.level === 'info') io.stdout.write(`${shown(hostNoticeIn(n, lang))}\n`);
}

/** The host's own validator (the one that gave the verdict), compiled only when data needs a second look. */
function revalidateAgainst(schema: Record<string, unknown>): Revalidate {
  return (data) => new AjvSchemaValidator().compile(schema).validate(data);
}

/**
 * 0: the turn ended with end_turn (and a requested structured output is `valid`), or the host
 * answered the prompt itself (a host command such as /help); 1: anything
 * else — an agent or turn error, max_turns reached, a refused prompt, an invalid answer.
 */
export function exitCodeOf(r: HeadlessResult, schemaRequested: boolean): number {
  if (handledByHost(r)) return 0;
  if (r.stop_reason !== 'end_turn') return 1;
  if (schemaRequested && r.structured_output?.validation_status !== 'valid') return 1;
  return 0;
}

function clip(s: string, n: number): string {
  return s.length > n ? `${cutAt(s, n)}…` : s;
}

/**
 * An agent without a model (the built-in one): what its tools returned is the answer on stdout (a
 * read as numbered lines, a search as `grep -n` prints it, a diff, a listing) and its words about
 * them ("Read `b.txt` (1 line).") a remark on stderr, so the answer pipes on (decision 697).
 */
function printToolOutputs(io: VerbIo, r: HeadlessResult, t: NonNullable<HeadlessResult['tool_outputs']>): void {
  for (const out of t.outputs) io.stdout.write(shown(out.endsWith('\n') ? out : `${out}\n`));
  if (t.cut) io.stderr.write('rawp run: the tools\' output was cut at 4 MB\n');
  // The agent's words, as it wrote them (a recap has several lines): no `rawp run:` of ours before them.
  if (r.text) io.stderr.write(shown(r.text.endsWith('\n') ? r.text : `${r.text}\n`));
}
