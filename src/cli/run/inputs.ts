// What `rawp run` reads besides its flags: the prompt from stdin (§6.1.1 `piped_stdin`, bounded),
// the --json-schema file (§11), --attach files as §6.1.1 `context_files`, and --allow patterns as
// permission rules. Each failure is a message for a usage error (exit 2); nothing here runs an agent.
import { fstatSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { scanJsonText } from '../../protocol/limits';
import { INCOMING_MAX_DEPTH, INCOMING_MAX_OBJECT_MEMBERS, INCOMING_MAX_VALUES } from '../../protocol/parse';
import type { RuleScope } from '../../session/permissions';
import { ruleTakesMoreArguments } from '../../tools/permissions/bashRule';
import { MAX_SCHEMA_BYTES, prepareSchema } from '../../session/structuredOutput';
import { AjvSchemaValidator } from '../../host/jsonSchemaValidator';

/** A prompt piped on stdin larger than this is refused, not cut (the agent would answer half a question). */
export const MAX_STDIN_BYTES = 1024 * 1024;

export class InputError extends Error {}

/** The piped prompt, whole; refuses a terminal (nothing piped) and more than MAX_STDIN_BYTES. */
export async function readStdinPrompt(stdin: NodeJS.ReadableStream & { isTTY?: boolean }): Promise<string> {
  if (stdin.isTTY) throw new InputError('no prompt: give PROMPT as an argument or pipe it on stdin');
  const text = await readAll(stdin, 'the prompt on stdin');
  if (!text.trim()) throw new InputError('no prompt: stdin was empty');
  return text;
}

/** How long a pipe may stay silent before `readPipedContext` stops waiting for it. */
export const PIPED_CONTEXT_WAIT_MS = 3_000;

/**
 * What is piped beside a PROMPT (`cat build.log | rawp run … "summarize this"`), to go after it —
 * as `claude -p` takes it; the headless trial of 2026-12-05 found it dropped without a word. Read
 * only from a pipe or a file (a terminal or /dev/null is no input). A pipe that sends
 * nothing and stays open (a CI runner's) is not waited on past PIPED_CONTEXT_WAIT_MS: `silent`.
 */
export async function readPipedContext(stdin: NodeJS.ReadableStream & { isTTY?: boolean; fd?: number }, waitMs = PIPED_CONTEXT_WAIT_MS): Promise<{ text?: string; silent?: true }> {
  if (stdin.isTTY) return {};
  let st;
  try {
    st = fstatSync(typeof stdin.fd === 'number' ? stdin.fd : 0);
  } catch {
    return {};
  }
  // A pipe: a shell's is a FIFO, a Node parent's (spawn's 'pipe') a socket pair.
  if (!st.isFIFO() && !st.isFile() && !st.isSocket()) return {};
  const first = await new Promise<'data' | 'end' | 'silent'>((resolve) => {
    const done = (why: 'data' | 'end' | 'silent') => {
      clearTimeout(timer);
      stdin.off('readable', onReadable);
      stdin.off('end', onEnd);
      resolve(why);
    };
    const onReadable = () => done('data');
    const onEnd = () => done('end');
    const timer = setTimeout(() => done('silent'), waitMs);
    stdin.once('readable', onReadable);
    stdin.once('end', onEnd);
  });
  if (first === 'silent') {
    stdin.pause();
    return { silent: true };
  }
  if (first === 'end') return {};
  const text = await readAll(stdin, 'the text piped on stdin');
  return text.trim() ? { text } : {};
}

async function readAll(stdin: NodeJS.ReadableStream, what: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += b.length;
    if (size > MAX_STDIN_BYTES) throw new InputError(`${what} is larger than ${MAX_STDIN_BYTES} bytes`);
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The schema sits three levels down in its frame (payload.config_overrides.json_schema). */
const SCHEMA_MAX_DEPTH = INCOMING_MAX_DEPTH - 4;
/** The frame's other values (the prompt, its file references) keep room beside the schema. */
const SCHEMA_MAX_VALUES = INCOMING_MAX_VALUES - 5_000;

/** The --json-schema FILE: JSON, an object schema, compilable (the session would refuse it anyway). */
export function readJsonSchema(file: string): Record<string, unknown> {
  let text: string;
  try {
    if (statSync(file).size > MAX_SCHEMA_BYTES) throw new InputError(`--json-schema ${file} is larger than ${MAX_SCHEMA_BYTES} bytes`);
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`--json-schema ${file}: ${fileProblem(e)}`);
  }
  // The schema rides in the prompt frame, which the host holds to a peer's bounds (decision 563):
  // a schema past them was dropped with the frame, and the run waited 60 s for a turn that never
  // came (the headless trial of 2026-12-05). Said now, before anything is sent.
  const shape = scanJsonText(text, { maxDepth: SCHEMA_MAX_DEPTH, maxObjectMembers: INCOMING_MAX_OBJECT_MEMBERS, maxValues: SCHEMA_MAX_VALUES });
  if (shape.over === 'depth') throw new InputError(`--json-schema ${file} nests deeper than ${SCHEMA_MAX_DEPTH} levels, more than a prompt may carry`);
  if (shape.over === 'members') throw new InputError(`--json-schema ${file} has an object of more than ${INCOMING_MAX_OBJECT_MEMBERS.toLocaleString('en')} members (keys), more than a prompt may carry`);
  if (shape.over === 'values') throw new InputError(`--json-schema ${file} holds more than ${SCHEMA_MAX_VALUES.toLocaleString('en')} values, more than a prompt may carry`);
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (e) {
    throw new InputError(`--json-schema ${file} is not JSON: ${(e as Error).message}`);
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) throw new InputError(`--json-schema ${file} is not a JSON Schema object`);
  const prepared = prepareSchema(schema as Record<string, unknown>, new AjvSchemaValidator());
  if (!prepared.ok) throw new InputError(`--json-schema ${file}: ${prepared.message}`);
  return prepared.schema;
}

/**
 * --attach FILE: an existing file; its absolute path. Whether the host takes it (its size limit,
 * its type, the agent) is the run's to say, by code (ATTACHMENT_TOO_LARGE …), not a usage error.
 */
export function attachment(file: string): string {
  const abs = resolve(file);
  try {
    if (!statSync(abs).isFile()) throw new InputError(`--attach ${file} is not a file`);
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`--attach ${file}: ${fileProblem(e)}`);
  }
  return abs;
}

/** Why a file given on the command line could not be read, in words ("ENOENT: no such file … stat" was shown raw). */
function fileProblem(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'not readable (permission denied)';
  if (code === 'EISDIR') return 'is a folder, not a file';
  if (code === 'ENOTDIR') return 'a part of its path is not a folder';
  if (code === 'ELOOP') return 'its symlinks loop';
  return (e as Error).message;
}

/** Tools whose rule argument is a command (Bash rule semantics), not a path glob. */
const COMMAND_TOOLS = new Set(['Bash']);
const PATTERN = /^([A-Za-z_][\w.:-]*)(?:\((.*)\))?$/s;

/**
 * --allow PATTERN, Claude Code's rule syntax: `Tool` (every call of it), `Bash(npm test)` (that
 * command; a command that only reads also with more file names: bashRule.ts; a trailing `:*` is accepted and widens nothing), `Edit(src/**)` (paths
 * under a workspace-relative glob).
 */
export function allowRule(pattern: string): RuleScope {
  const m = PATTERN.exec(pattern.trim());
  if (!m) throw new InputError(`--allow ${JSON.stringify(pattern)}: expected Tool, Tool(glob) or Bash(command)`);
  const [, tool_name, arg] = m;
  if (arg === undefined) return { tool_name };
  const value = arg.trim();
  if (!value) throw new InputError(`--allow ${JSON.stringify(pattern)}: empty parentheses`);
  if (COMMAND_TOOLS.has(tool_name)) {
    const prefix = value.replace(/:\*$/, '').trim();
    // A Bash rule is a command and its first words, matched as words (bashRule.ts): a `*` is never
    // a wildcard there, so `Bash(echo *)` matched nothing and was taken in silence (the CLI trial).
    if (/[*?]/.test(prefix)) throw new InputError(`--allow ${JSON.stringify(pattern)}: a ${tool_name} rule is a command's first words, not a glob: write ${tool_name}(${prefix.replace(/\s*[*?].*$/, '') || 'npm test'}) to allow that command (a command that only reads, such as ls or git log, also with more file names)`);
    return { tool_name, command_prefix: prefix };
  }
  return { tool_name, path_glob: value };
}

/**
 * What to tell the user of an `--allow 'Bash(cmd:*)'` (`rule`: allowRule's reading of `pattern`)
 * that asks for more than it gets: Claude Code reads `:*` as "and any arguments", ours allows
 * exactly `cmd` unless it only reads (decision 706).
 */
export function allowPatternNote(pattern: string, rule: RuleScope): string | undefined {
  const command = rule.command_prefix;
  if (!command || !/:\*\s*\)$/.test(pattern.trim()) || ruleTakesMoreArguments(command)) return undefined;
  return `--allow ${JSON.stringify(pattern)} allows exactly \`${command}\`, nothing added: a ${rule.tool_name} rule takes more arguments only for a command that only reads (ls, cat, git log …); repeat --allow with each whole command you expect`;
}

/** A comma-separated tool list (--allowed-tools A,B). */
export function toolList(flag: string, value: string): string[] {
  const names = value.split(',').map((s) => s.trim()).filter(Boolean);
  if (names.length === 0) throw new InputError(`${flag} needs at least one tool name`);
  return names;
}
