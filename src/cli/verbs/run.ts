// `rawp run` — one agent turn from a script, as `claude -p`, `codex exec` or `gemini -p` do for
// one agent, for every agent of ours. Argument parsing only: the session is the host's
// (src/host/headlessRun.ts, the same SessionHost as `rawp serve` and the editor).
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { PayloadOf } from '../../protocol/frameTypes';
import { HeadlessRun } from '../../host/headlessRun';
import { environmentLanguage } from '../../agents/builtin/words';
import { silentLogger, type Logger } from '../../session/ports';
import type { Verb, VerbIo } from '../verb';
import { scrubStartEnvironment } from '../startEnvironment';
import { CONTEXT_WINDOW_USAGE, contextWindowArg, directoryArg, notADirectory, parseVerbArgs, usageError } from '../verbArgs';
import { withPipedContext } from '../../protocol/pipedContext';
import { allowPatternNote, allowRule, attachment, InputError, MAX_STDIN_BYTES, PIPED_CONTEXT_WAIT_MS, readJsonSchema, readPipedContext, readStdinPrompt, toolList } from '../run/inputs';
import { UNKNOWN_TOOL } from '../../host/toolNameCheck';
import { terminalLanguage } from '../terminalLanguage';
import { errorLines, exitCodeOf, frameLine, printResult, unansweredLine, type OutputFormat } from '../run/output';
import { verboseLine } from '../run/verboseLine';
import { unloadedWarnings } from '../run/unloadedWarning';

const HELP = `Usage: rawp run --workspace DIR --agent NAME [--base-url URL --model M] [--json-schema FILE]
                [--output-format text|json|stream-json] [--max-turns N]
                [--allowed-tools A,B] [--denied-tools A,B] [--allow PATTERN]... [--attach FILE]...
                [--rules-file F] [--verbose] [PROMPT]

Runs one prompt with an agent on DIR, headless, and prints the answer. The prompt is PROMPT (all
words after the options, joined by spaces; put "--" before a prompt that starts with "-"), or,
without PROMPT, everything piped on stdin (sent as input_type "piped_stdin", at most ${MAX_STDIN_BYTES / 1024 / 1024} MiB).
With PROMPT, text piped on stdin goes after it inside <stdin>…</stdin>, as context for the model
(\`cat build.log | rawp run … "why did this fail?"\`; the built-in agent takes requests from PROMPT
only); a pipe that sends nothing for ${PIPED_CONTEXT_WAIT_MS / 1000} s is not waited on.

  --workspace DIR          the folder the agent works in (required)
  --agent NAME             builtin, claude-code, codex, openai, acp:<preset or command line> (required)
  --base-url URL --model M the OpenAI-compatible endpoint (with --agent openai; key in RAWP_OPENAI_API_KEY)
  --context-window N       that model's context window in tokens: the conversation is kept within it
                           (without it, asked of the server — its model list, Ollama — or learned
                           from a refusal for length)
  --json-schema FILE       structured output (RAWP-DPS §11): a JSON Schema of an object. The agent is
                           asked natively where it can (Claude Code --json-schema, Codex
                           --output-schema, response_format json_schema), else told in the prompt;
                           the answer is validated either way: validation_status valid, partial
                           (every value right, required properties missing) or failed
  --output-format F        text (default): the answer's text on stdout (with --json-schema: the
                             structured data as one JSON line)
                             — only data that is valid, or passes a second validation (§15.4);
                             the built-in agent (no model): what its tools returned on stdout,
                             its words about them on stderr
                           json: one object {is_error, session_id, agent_session_id, turn_id,
                             stop_reason, text, structured_output, usage, permission_denials,
                             errors, notices, num_turns, duration_ms, unloaded_command_files,
                             unloaded_command_files_total; the built-in agent's
                             tool_outputs}; is_error is true exactly
                             when the exit status is not 0 (bad arguments, exit 2, print no object:
                             only the stderr line); agent_session_id is the agent's
                             own (claude --resume, codex exec resume), null when it named none
                           stream-json: every DPS frame of the conversation, one JSON line each,
                             both directions (rawp validate accepts it)
  --max-turns N            at most N agent steps (one model reply with its tool calls each); the
                           turn then ends with agent.error MAX_TURNS and stop_reason "error"
  --allowed-tools A,B      only these tools may run (config_overrides.allowed_tools)
  --denied-tools A,B       these tools may not run (config_overrides.denied_tools); a plain name
                           that is no tool of the agent's catalog is refused (exit 2, case matters).
                           Codex runs its tools itself: a denied Bash takes its shell away, a
                           denied apply_patch makes its sandbox read-only
  --allow PATTERN          answer permission prompts matching PATTERN with "allow" (repeatable):
                           Tool, Bash(command) — exactly that command (one that only reads, such as
                           ls, cat or git log, also with more file names inside the workspace) —
                           or Tool(glob) — paths under a workspace-relative glob, e.g. Edit(src/**);
                           a tool that is not the agent's is refused (exit 2, case matters)
  --attach FILE            send FILE with the prompt (context_files; repeatable): a file: URL inside
                           the workspace, else a copy in the run's own file store (/v1/files/{id});
                           at most 20 MB; the agent must take its type, or the prompt is refused
  --rules-file F           the saved permission rules (default ~/.config/rawp/permission-rules.json)
  --verbose                log the session's events to stderr, one line each (the tools called and
                           their targets, questions and answers, errors, the turn's end)

Nobody is there to answer questions: a permission prompt that no --allow pattern or saved rule
allows is rejected (Codex asks none: its sandbox decides, and --allow has no effect on it), and any other question times out; each is reported on stderr (and listed in
the json output's permission_denials). The agent's errors are reported on stderr too.

Why a run failed is said on stderr, one line each — "rawp run: agent|session error CODE: what
happened, in words" — and, with --output-format json, in errors[] as {source, error_code, message}:
  ATTACHMENT_NOT_SUPPORTED  the agent cannot take a file of that type (nothing was sent)
  ATTACHMENT_TOO_LARGE      an --attach file is over the 20 MB limit (nothing was sent)
  ATTACHMENT_TYPE_MISMATCH  an --attach file's content is not the type its name says
  ATTACHMENT_UNAVAILABLE    an --attach file could not be read
  COMMAND_FAILED            a slash command failed (e.g. /mode without a mode)
  COMPACTION_NOT_SUPPORTED  /compact for an agent that cannot compact (MODE_NOT_SUPPORTED: /mode)
  ERRORS_LEFT_OUT           errors[] keeps the first and last 50; this entry counts the rest
  MAX_TURNS                 --max-turns was reached (stop_reason "error")
  STRUCTURED_OUTPUT_INVALID the answer does not match --json-schema (validation_status partial
                            or failed; an agent warning, exit 1)
  STRUCTURED_OUTPUT_NOT_SUPPORTED  --json-schema for the built-in agent, which has no model
  NO_TURN                   the prompt started no turn within 60 s
and the agent's own codes (AGENT_ERROR, API_ERROR, …). Host commands (/help, /mode plan,
/compact) are answered by the host: its answer on stdout, exit 0.

Exit status: 0 the turn ended normally (stop_reason "end_turn") and, with --json-schema, the
answer is valid, or the host answered the prompt itself (a host command such as /help); 1 an agent or turn error (including max turns reached, a refused prompt, an
answer that does not match the schema); 2 bad arguments (or an agent that is not installed);
130 interrupted (Ctrl-C cancels the turn; a second Ctrl-C stops at once); 143 stopped by SIGTERM
(the turn is cancelled, as a CI timeout does); 141 stdout was closed
(the reader went away, as with SIGPIPE: the turn is cancelled).
`;

export const runVerb: Verb = {
  name: 'run',
  summary: 'run one prompt with an agent headless and print the answer (text, json or stream-json)',
  help: HELP,
  async run(argv, io) {
    const parsed = parseVerbArgs(runVerb, io, {
      args: argv,
      allowPositionals: true,
      options: {
        workspace: { type: 'string' },
        agent: { type: 'string' },
        'base-url': { type: 'string' },
        'context-window': { type: 'string' },
        model: { type: 'string' },
        'json-schema': { type: 'string' },
        'output-format': { type: 'string' },
        'max-turns': { type: 'string' },
        'allowed-tools': { type: 'string' },
        'denied-tools': { type: 'string' },
        allow: { type: 'string', multiple: true },
        attach: { type: 'string', multiple: true },
        'rules-file': { type: 'string' },
        verbose: { type: 'boolean' },
      },
    });
    if (typeof parsed === 'number') return parsed;
    // The tools this run allows must not read our API keys from /proc/PID/environ (decision 668).
    scrubStartEnvironment();
    const { values, positionals } = parsed;
    const usage = (message: string) => usageError(runVerb, io, message);
    if (!values.workspace) return usage('--workspace DIR is required');
    if (!values.agent) return usage('--agent NAME is required (builtin, claude-code, codex, openai, acp:…)');
    const workspace = directoryArg(values.workspace);
    if (!workspace) return usage(notADirectory(values.workspace));
    const contextWindow = contextWindowArg(values['context-window']);
    if (contextWindow === null) return usage(CONTEXT_WINDOW_USAGE);
    const format = values['output-format'] ?? 'text';
    if (format !== 'text' && format !== 'json' && format !== 'stream-json') return usage(`--output-format must be text, json or stream-json, not "${format}"`);
    const maxTurns = values['max-turns'] === undefined ? undefined : Number(values['max-turns']);
    if (maxTurns !== undefined && !(Number.isInteger(maxTurns) && maxTurns >= 1 && maxTurns <= 10_000)) return usage('--max-turns must be a whole number from 1 to 10000');

    let prompt: PayloadOf<'control.prompt.request'>;
    let allow;
    let attachments: string[] = [];
    try {
      const config_overrides: NonNullable<PayloadOf<'control.prompt.request'>['config_overrides']> = { output_format: format };
      if (values['json-schema']) config_overrides.json_schema = readJsonSchema(values['json-schema']);
      if (maxTurns !== undefined) config_overrides.max_turns = maxTurns;
      if (values['allowed-tools'] !== undefined) config_overrides.allowed_tools = toolList('--allowed-tools', values['allowed-tools']);
      if (values['denied-tools'] !== undefined) config_overrides.denied_tools = toolList('--denied-tools', values['denied-tools']);
      allow = (values.allow ?? []).map((pattern) => {
        const rule = allowRule(pattern);
        const note = allowPatternNote(pattern, rule);
        if (note) io.stderr.write(`rawp run: note: ${note}\n`);
        return rule;
      });
      attachments = (values.attach ?? []).map(attachment);
      const argText = positionals.join(' ');
      // A PROMPT given but blank is a mistake of its own, not a cue to read stdin.
      if (positionals.length > 0 && !argText.trim()) throw new InputError('no prompt: PROMPT is empty or only white space');
      let text = argText.trim() ? argText : await readStdinPrompt(io.stdin);
      if (argText.trim()) {
        const piped = await readPipedContext(io.stdin);
        if (piped.text !== undefined) text = withPipedContext(argText, piped.text);
        else if (piped.silent) io.stderr.write(`rawp run: stdin is open but sent nothing within ${PIPED_CONTEXT_WAIT_MS / 1000} s; going on with PROMPT alone\n`);
      }
      prompt = { prompt_text: text, input_type: argText.trim() ? 'text' : 'piped_stdin', config_overrides };
    } catch (e) {
      if (e instanceof InputError) return usage(e.message);
      throw e;
    }

    const run = new HeadlessRun({
      workspace,
      // The link --workspace may have been given by: a path typed by its name is the same file (decision 729).
      workspaceOtherName: resolve(values.workspace),
      agent: values.agent,
      openai: { baseUrl: values['base-url'], model: values.model, ...(contextWindow ? { contextWindow } : {}) },
      language: environmentLanguage(process.env),
      prompt,
      attachments,
      allow,
      rulesFile: values['rules-file'] ?? join(homedir(), '.config', 'rawp', 'permission-rules.json'),
      logger: values.verbose ? stderrLogger(io) : silentLogger,
      onFrame: (f, from) => {
        if (format === 'stream-json' && !readerGone) frameLine(io, f);
        const line = values.verbose ? verboseLine(f, from) : undefined;
        if (line !== undefined) io.stderr.write(`${line}\n`);
      },
      onUnanswered: (u) => unansweredLine(io, u),
      onRulesProblem: (m) => void io.stderr.write(`rawp run: ${m}\n`),
      // Every format: the command files that did not load are said on stderr (decisions 727, 731).
      onUnloadedCommands: unloadedWarnings(io),
    });
    let agentId: string;
    try {
      agentId = await run.resolveAgent();
    } catch (e) {
      return usage((e as Error).message);
    }
    // Codex never asks: its sandbox decides what its commands may do (decision 614). An --allow
    // that can never apply is said, not left to look like a safeguard.
    if (agentId === 'codex' && allow.length > 0) io.stderr.write('rawp run: --allow has no effect with Codex: it asks no permission; its sandbox (workspace-write: writes inside the workspace) decides what its commands may do. Use --denied-tools Bash or --denied-tools apply_patch to take those tools away.\n');

    // Ctrl-C cancels the turn (§6.1.2); a second one stops at once. A reader that goes away
    // (`| head -1`: EPIPE) is a SIGPIPE: nothing more is written, the turn is cancelled, exit 141.
    // Which signal stopped the run: its exit status is 128 + its number (SIGINT 130, SIGTERM 143,
    // how CI runners time a job out), and stderr says so — a timed-out job's log said nothing.
    // Any other write error (a full disk: ENOSPC, EIO) loses the answer: said, and exit 1, never 0
    // (the CLI trial of 2026-12-06 wrote to /dev/full and was told all went well).
    let interrupted: NodeJS.Signals | undefined;
    let readerGone = false;
    let writeError: NodeJS.ErrnoException | undefined;
    const onStdoutError = (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') {
        writeError ??= e;
        return;
      }
      if (readerGone) return;
      readerGone = true;
      if (!run.cancel()) stopNow?.();
    };
    io.stdout.on('error', onStdoutError);
    let stopNow: (() => void) | undefined;
    const stopped = new Promise<'stopped'>((r) => (stopNow = () => r('stopped')));
    const onSignal = (signal: NodeJS.Signals) => {
      if (interrupted || !run.cancel()) stopNow?.();
      if (!interrupted) io.stderr.write(`rawp run: ${signal} received: the turn is cancelled${signal === 'SIGINT' ? ' (a second Ctrl-C stops at once)' : ''}\n`);
      interrupted ??= signal;
    };
    const signalExit = () => (interrupted === 'SIGTERM' ? 143 : 130);
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    try {
      const result = await Promise.race([run.run(), stopped]);
      if (readerGone) return 141;
      if (result === 'stopped') return signalExit();
      const lang = terminalLanguage(process.env);
      errorLines(io, result, lang);
      printResult(io, format as OutputFormat, result, lang, prompt.config_overrides?.json_schema);
      await written(io.stdout);
      if (readerGone) return 141;
      if (writeError) {
        io.stderr.write(`rawp run: the answer could not be written to stdout: ${writeError.message}\n`);
        return 1;
      }
      if (interrupted) return signalExit();
      // A tool list naming no tool of the agent is a usage error, as a malformed --allow is.
      if (result.errors.some((e) => e.error_code === UNKNOWN_TOOL)) return 2;
      return exitCodeOf(result, prompt.config_overrides?.json_schema !== undefined);
    } catch (e) {
      io.stderr.write(`rawp run: ${(e as Error).message}\n`);
      return 1;
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      await run.dispose();
    }
  },
};

function stderrLogger(io: VerbIo): Logger {
  const line = (level: string) => (message: string, data?: Record<string, unknown>) => io.stderr.write(`[${level}] ${message}${data ? ` ${JSON.stringify(data)}` : ''}\n`);
  return { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') };
}

/** Resolves once what was written to `stream` has gone out or failed (its 'error' event fired first). */
function written(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => {
    stream.write('', () => setImmediate(resolve));
  });
}

