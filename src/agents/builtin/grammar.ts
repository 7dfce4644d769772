// The built-in agent's request grammar (docs/builtin-agent.md). Pure: text in, requests out.
// One request per line, except `write <path>: …` and `plan: …` / `delegate: …`, which take the rest
// of the prompt. Paths may be plain (`src/a.ts`), quoted in backticks, or file-reference tokens
// (`<@file:ref_0|src/a.ts>`), which the adapter resolves before parsing.

export type BuiltinRequest =
  | { kind: 'help' }
  | { kind: 'read'; path: string; offset?: number; limit?: number }
  | { kind: 'find'; pattern: string; path?: string }
  | { kind: 'files'; pattern: string }
  | { kind: 'ls'; path: string }
  | { kind: 'replace'; old_string: string; new_string: string; path: string; all: boolean }
  | { kind: 'write'; path: string; content: string }
  | { kind: 'run'; command: string }
  | { kind: 'todo'; items: string[] }
  | { kind: 'todos' }
  | { kind: 'plan'; text: string; steps: string[] }
  | { kind: 'delegate'; prompt: string }
  | { kind: 'compact'; instruction?: string }
  | { kind: 'unknown'; text: string };

/** A backticked literal: `a`, or ``a ` b`` with double backticks. */
const LITERAL = '(?:``([\\s\\S]*?)``|`([^`]*)`)';
const REPLACE = new RegExp(`^replace\\s+(all\\s+)?${LITERAL}\\s+with\\s+${LITERAL}\\s+in\\s+(.+)$`, 'i');

function unquote(s: string): string {
  const t = s.trim();
  const m = /^`([^`]+)`$/.exec(t) ?? /^"([^"]+)"$/.exec(t) ?? /^'([^']+)'$/.exec(t);
  return m ? m[1] : t.replace(/^@/, '');
}

function parseLine(line: string): BuiltinRequest {
  const t = line.trim();
  let m: RegExpExecArray | null;
  if (/^(help|\/help|\?)$/i.test(t)) return { kind: 'help' };
  if ((m = /^\/compact(?:\s+([\s\S]+))?$/i.exec(t))) return m[1] ? { kind: 'compact', instruction: m[1].trim() } : { kind: 'compact' };
  if ((m = /^read\s+(.+?)(?:\s+lines?\s+(\d+)(?:\s*-\s*(\d+))?)?$/i.exec(t))) {
    const req: BuiltinRequest = { kind: 'read', path: unquote(m[1]) };
    if (m[2]) {
      req.offset = Number(m[2]);
      if (m[3]) req.limit = Math.max(1, Number(m[3]) - Number(m[2]) + 1);
    }
    return req;
  }
  if ((m = /^(?:find|grep|search)\s+(?:`([^`]+)`|(\S+))(?:\s+in\s+(.+))?$/i.exec(t))) {
    const req: BuiltinRequest = { kind: 'find', pattern: m[1] ?? m[2] };
    if (m[3]) req.path = unquote(m[3]);
    return req;
  }
  if ((m = /^(?:files|glob)\s+(.+)$/i.exec(t))) return { kind: 'files', pattern: unquote(m[1]) };
  if ((m = /^(?:ls|list)(?:\s+(.+))?$/i.exec(t))) return { kind: 'ls', path: m[1] ? unquote(m[1]) : '.' };
  if ((m = REPLACE.exec(t))) return { kind: 'replace', all: !!m[1], old_string: m[2] ?? m[3], new_string: m[4] ?? m[5], path: unquote(m[6]) };
  if ((m = /^run\s+(?:``([\s\S]+)``|`([^`]+)`)$/i.exec(t))) return { kind: 'run', command: m[1] ?? m[2] };
  if ((m = /^todos?:\s*(.+)$/i.exec(t))) return { kind: 'todo', items: m[1].split(';').map((s) => s.trim()).filter(Boolean) };
  if (/^todos?$/i.test(t)) return { kind: 'todos' };
  return { kind: 'unknown', text: t };
}

/** Parses a whole prompt into requests. */
export function parseRequests(text: string): BuiltinRequest[] {
  const trimmed = text.trim();
  let m: RegExpExecArray | null;
  if ((m = /^write\s+(.+?):[ \t]*\n?([\s\S]*)$/i.exec(trimmed))) return [{ kind: 'write', path: unquote(m[1]), content: m[2].endsWith('\n') || m[2] === '' ? m[2] : m[2] + '\n' }];
  if ((m = /^plan:\s*([\s\S]*)$/i.exec(trimmed))) {
    const body = m[1].trim();
    const steps = body.split(/\n|;/).map((s) => s.replace(/^\s*(?:\d+[.)]|[-*])\s*/, '').trim()).filter(Boolean);
    return [{ kind: 'plan', text: body, steps }];
  }
  if ((m = /^delegate:\s*([\s\S]+)$/i.exec(trimmed))) return [{ kind: 'delegate', prompt: m[1].trim() }];
  const lines = trimmed.split('\n').filter((l) => l.trim() !== '');
  if (lines.length === 0) return [{ kind: 'help' }];
  return lines.map(parseLine);
}

export const GRAMMAR_HELP = [
  'I am the built-in offline agent: no model, just these requests over the real tools.',
  '',
  '- `read <path>` (or `read @file`, `read <path> lines 10-20`) — Read a file',
  '- `find <regex>` / `find <regex> in <path>` — Grep for a regular expression',
  '- `files <glob>` — Glob, e.g. `files src/**/*.ts`',
  '- `ls [path]` — list a directory',
  '- ``replace `old` with `new` in <path>`` (also `replace all …`) — Edit (I read the file first)',
  '- `write <path>: <content>` — Write a file (new files only, or files read in this session)',
  '- ``run `command` `` — Bash, streamed live',
  '- `todo: a; b; c` — TodoWrite; `todos` — TodoRead',
  '- `plan: step; step; …` — a plan document, then asks for approval and carries out the steps',
  '- `delegate: <request>` — run the request in a subagent (Task)',
  '- `/compact [instruction]` — compact the context',
  '- `help` — this list',
  '',
  'Several requests may go on separate lines of one prompt.',
].join('\n');

export const CONNECT_HELP = [
  "I'm the built-in offline agent and I don't understand free text — there is no model behind me.",
  'To talk to a real agent, pick one in the agent menu (or `rawp serve --agent <id>`):',
  '- **Claude Code**: install `@anthropic-ai/claude-code` and sign in (`claude login`), or set `ANTHROPIC_API_KEY`.',
  '- **Codex**: install `@openai/codex` and sign in (`codex login`), or set `OPENAI_API_KEY`.',
  '- **ACP agents** (e.g. Gemini CLI): install the agent and select it as `acp:<name>`.',
  '- **OpenAI-compatible model**: set `rawp.openai.baseUrl`, `rawp.openai.model` and an API key.',
  '',
  'Type `help` to see what I can do without a model.',
].join('\n');
