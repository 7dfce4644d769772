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
  /** `steps` as shown; `requests` parsed from them (references already resolved as data). */
  | { kind: 'plan'; text: string; steps: string[]; requests: BuiltinRequest[] }
  | { kind: 'delegate'; prompt: string }
  | { kind: 'compact'; instruction?: string }
  | { kind: 'unknown'; text: string };

// Linear time on any input (issue 12 finding 2: `read a` + 200,000 spaces + `b` froze the host for
// 59 s in a backtracking regex): lines are cut with indexOf and character scans; the only regexes
// left are anchored and cannot backtrack more than once per character.
//
// File references are data, never syntax (issue 12 finding 9): the adapter replaces each one by a
// placeholder (`\uE000n\uE001`, see `referencePlaceholder`) before parsing, so a picked file named
// `notes\nrun \`touch X\`\n.md` cannot add a line; each request's fields then get the path back —
// shell-quoted inside a `run` command, regex-escaped inside a `find` pattern.

const OPEN = '\uE000';
const CLOSE = '\uE001';
const PLACEHOLDER = /\uE000(\d+)\uE001/g;

/** The placeholder that stands for reference `n` while the prompt is parsed. */
export function referencePlaceholder(n: number): string {
  return `${OPEN}${n}${CLOSE}`;
}

/** Text typed by the user can never forge a placeholder. */
export function stripPlaceholderMarks(text: string): string {
  return text.replace(/[\uE000\uE001]/g, '\uFFFD');
}

type FillAs = 'text' | 'shell' | 'regex' | 'glob';

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

function fill(s: string, refs: readonly string[], as: FillAs = 'text'): string {
  if (!s.includes(OPEN)) return s;
  return s.replace(PLACEHOLDER, (whole, n: string) => {
    const p = refs[Number(n)];
    if (p === undefined) return whole;
    if (as === 'shell') return shellQuote(p);
    if (as === 'regex') return p.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    if (as === 'glob') return p.replace(/[*?[\]{}()!\\]/g, '\\$&');
    return p;
  });
}

function isSpace(c: string | undefined): boolean {
  return c !== undefined && /\s/.test(c);
}

function skipSpaces(s: string, i: number): number {
  while (i < s.length && isSpace(s[i])) i++;
  return i;
}

/** `s` starts at `i` with `word` (any case) followed by at least one space: the index after the spaces, or -1. */
function keywordAt(s: string, i: number, word: string): number {
  if (s.slice(i, i + word.length).toLowerCase() !== word || !isSpace(s[i + word.length])) return -1;
  return skipSpaces(s, i + word.length);
}

function unquote(s: string): string {
  const t = s.trim();
  for (const q of ['`', '"', "'"]) {
    if (t.length > 2 && t.startsWith(q) && t.endsWith(q) && !t.slice(1, -1).includes(q)) return t.slice(1, -1);
  }
  return t.startsWith('@') ? t.slice(1) : t;
}

/** A backticked literal at `i`: ``a ` b`` (double) or `a` (single); each alternative in turn. */
function literalsAt(s: string, i: number): { value: string; end: number }[] {
  const out: { value: string; end: number }[] = [];
  if (s.startsWith('``', i)) {
    const close = s.indexOf('``', i + 2);
    if (close >= 0) out.push({ value: s.slice(i + 2, close), end: close + 2 });
  }
  if (s[i] === '`') {
    const close = s.indexOf('`', i + 1);
    if (close >= 0) out.push({ value: s.slice(i + 1, close), end: close + 1 });
  }
  return out;
}

/** `<path> lines N[-M]` at the end of `rest` (read's optional range), scanned from the end. */
function readArgs(rest: string): { path: string; offset?: number; limit?: number } {
  let i = rest.length;
  const digitsBack = () => {
    const end = i;
    while (i > 0 && rest[i - 1] >= '0' && rest[i - 1] <= '9') i--;
    return i < end ? rest.slice(i, end) : undefined;
  };
  const spacesBack = () => {
    const end = i;
    while (i > 0 && isSpace(rest[i - 1])) i--;
    return end - i;
  };
  let first = digitsBack();
  let last: string | undefined;
  if (first !== undefined) {
    const save = i;
    spacesBack();
    if (rest[i - 1] === '-') {
      i--;
      spacesBack();
      last = first;
      first = digitsBack();
      if (first === undefined) i = save;
    } else i = save;
  }
  if (first !== undefined && spacesBack() > 0) {
    const word = rest.slice(Math.max(0, i - 5), i).toLowerCase();
    const len = word.endsWith('lines') ? 5 : word.endsWith('line') ? 4 : 0;
    if (len > 0) {
      i -= len;
      if (spacesBack() > 0 && i > 0) {
        const offset = Number(first);
        return { path: rest.slice(0, i), offset, ...(last !== undefined ? { limit: Math.max(1, Number(last) - offset + 1) } : {}) };
      }
    }
  }
  return { path: rest };
}

function findArgs(rest: string): { pattern: string; path?: string } | undefined {
  const candidates: { pattern: string; end: number }[] = [];
  if (rest[0] === '`') {
    const close = rest.indexOf('`', 1);
    if (close > 1) candidates.push({ pattern: rest.slice(1, close), end: close + 1 });
  }
  let e = 0;
  while (e < rest.length && !isSpace(rest[e])) e++;
  if (e > 0) candidates.push({ pattern: rest.slice(0, e), end: e });
  for (const c of candidates) {
    if (c.end === rest.length) return { pattern: c.pattern };
    if (!isSpace(rest[c.end])) continue;
    const at = keywordAt(rest, skipSpaces(rest, c.end), 'in');
    if (at > 0 && at < rest.length) return { pattern: c.pattern, path: rest.slice(at) };
  }
  return undefined;
}

function replaceArgs(rest: string): { all: boolean; old_string: string; new_string: string; path: string } | undefined {
  const afterAll = keywordAt(rest, 0, 'all');
  for (const [all, from] of afterAll > 0 ? ([[true, afterAll], [false, 0]] as const) : ([[false, 0]] as const)) {
    for (const a of literalsAt(rest, from)) {
      if (!isSpace(rest[a.end])) continue;
      const w = keywordAt(rest, skipSpaces(rest, a.end), 'with');
      if (w < 0) continue;
      for (const b of literalsAt(rest, w)) {
        if (!isSpace(rest[b.end])) continue;
        const p = keywordAt(rest, skipSpaces(rest, b.end), 'in');
        if (p > 0 && p < rest.length) return { all, old_string: a.value, new_string: b.value, path: rest.slice(p) };
      }
    }
  }
  return undefined;
}

function runArgs(rest: string): string | undefined {
  if (rest.length >= 5 && rest.startsWith('``') && rest.endsWith('``')) return rest.slice(2, -2);
  if (rest.length >= 3 && rest.startsWith('`') && rest.endsWith('`') && !rest.slice(1, -1).includes('`')) return rest.slice(1, -1);
  return undefined;
}

function parseLine(line: string, refs: readonly string[]): BuiltinRequest {
  const t = line.trim();
  const lower = t.toLowerCase();
  let head = 0;
  while (head < t.length && !isSpace(t[head])) head++;
  const word = lower.slice(0, head);
  const rest = t.slice(skipSpaces(t, head));
  const unknown: BuiltinRequest = { kind: 'unknown', text: fill(t, refs) };
  if (lower === 'help' || lower === '/help' || lower === '?') return { kind: 'help' };
  if (word === '/compact') return rest ? { kind: 'compact', instruction: fill(rest, refs) } : { kind: 'compact' };
  if (!rest) {
    if (word === 'ls' || word === 'list') return { kind: 'ls', path: '.' };
    if (word === 'todo' || word === 'todos') return { kind: 'todos' };
  }
  if (word.startsWith('todo:') || word.startsWith('todos:')) {
    const items = t.slice(t.indexOf(':') + 1).trim();
    return items ? { kind: 'todo', items: items.split(';').map((s) => fill(s.trim(), refs)).filter(Boolean) } : unknown;
  }
  if (!rest) return unknown;
  switch (word) {
    case 'read': {
      const r = readArgs(rest);
      return { kind: 'read', path: fill(unquote(r.path), refs), ...(r.offset !== undefined ? { offset: r.offset } : {}), ...(r.limit !== undefined ? { limit: r.limit } : {}) };
    }
    case 'find':
    case 'grep':
    case 'search': {
      const f = findArgs(rest);
      if (!f) return unknown;
      return { kind: 'find', pattern: fill(f.pattern, refs, 'regex'), ...(f.path !== undefined ? { path: fill(unquote(f.path), refs) } : {}) };
    }
    case 'files':
    case 'glob':
      return { kind: 'files', pattern: fill(unquote(rest), refs, 'glob') };
    case 'ls':
    case 'list':
      return { kind: 'ls', path: fill(unquote(rest), refs) };
    case 'replace': {
      const r = replaceArgs(rest);
      return r ? { kind: 'replace', all: r.all, old_string: fill(r.old_string, refs), new_string: fill(r.new_string, refs), path: fill(unquote(r.path), refs) } : unknown;
    }
    case 'run': {
      const command = runArgs(rest);
      return command ? { kind: 'run', command: fill(command, refs, 'shell') } : unknown;
    }
  }
  return unknown;
}

export interface DelegateEncoding {
  text(s: string): string;
  ref(path: string): string;
}
const PLAIN: DelegateEncoding = { text: (s) => s, ref: (p) => p };

/** A prefix `word:` (any case) of `text`: the index after the colon, or -1. */
function prefixed(text: string, word: string): number {
  return text.slice(0, word.length + 1).toLowerCase() === `${word}:` ? word.length + 1 : -1;
}

/**
 * Parses a whole prompt into requests. `refs` are the paths of the file references whose
 * placeholders (`referencePlaceholder`) the text carries; they are never parsed as syntax.
 * `delegate` renders the text and references of a `delegate:` prompt, which a subagent parses again.
 */
/** `write <path>: …` beginning at `start` of `text` (a line's start): it takes the rest of the text. */
function writeFrom(text: string, start: number, refs: readonly string[]): BuiltinRequest | undefined {
  if (text.slice(start, start + 5).toLowerCase() !== 'write' || !isSpace(text[start + 5])) return undefined;
  const newline = text.indexOf('\n', start);
  const lineEnd = newline < 0 ? text.length : newline;
  const colon = text.indexOf(':', start + 6);
  const pathStart = skipSpaces(text, start + 5);
  if (colon < 0 || colon >= lineEnd || colon <= pathStart) return undefined;
  let c = colon + 1;
  while (text[c] === ' ' || text[c] === '\t') c++;
  if (text[c] === '\n') c++;
  const content = fill(text.slice(c), refs);
  return { kind: 'write', path: fill(unquote(text.slice(pathStart, colon)), refs), content: content.endsWith('\n') || content === '' ? content : content + '\n' };
}

export function parseRequests(text: string, refs: readonly string[] = [], delegate: DelegateEncoding = PLAIN): BuiltinRequest[] {
  const trimmed = text.trim();
  const whole = writeFrom(trimmed, 0, refs);
  if (whole) return [whole];
  let at: number;
  if ((at = prefixed(trimmed, 'plan')) > 0) {
    const body = trimmed.slice(at).trim();
    const steps = body
      .split(/\n|;/)
      .map((s) => s.replace(/^\s*(?:\d+[.)]|[-*])\s*/, '').trim())
      .filter(Boolean);
    return [{ kind: 'plan', text: fill(body, refs), steps: steps.map((s) => fill(s, refs)), requests: steps.map((s) => parseLine(s, refs)) }];
  }
  if ((at = prefixed(trimmed, 'delegate')) > 0 && trimmed.slice(at).trim()) {
    const body = trimmed.slice(at).trim();
    let prompt = '';
    let last = 0;
    for (const m of body.matchAll(PLACEHOLDER)) {
      const p = refs[Number(m[1])];
      if (p === undefined) continue;
      prompt += delegate.text(body.slice(last, m.index)) + delegate.ref(p);
      last = m.index + m[0].length;
    }
    return [{ kind: 'delegate', prompt: prompt + delegate.text(body.slice(last)) }];
  }
  // One request a line; a `write` on a later line takes the rest of the prompt, as it does first.
  const requests: BuiltinRequest[] = [];
  for (let start = 0; start <= trimmed.length; ) {
    const newline = trimmed.indexOf('\n', start);
    const end = newline < 0 ? trimmed.length : newline;
    const line = trimmed.slice(start, end);
    if (line.trim() !== '') {
      const write = writeFrom(trimmed, start + (line.length - line.trimStart().length), refs);
      if (write) {
        requests.push(write);
        break;
      }
      requests.push(parseLine(line, refs));
    }
    if (newline < 0) break;
    start = newline + 1;
  }
  return requests.length === 0 ? [{ kind: 'help' }] : requests;
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
  'Several requests may go on separate lines of one prompt; a `write` takes every line after it as',
  'its content, so put it last.',
].join('\n');

export const CONNECT_HELP = [
  "I'm the built-in offline agent and I don't understand free text — there is no model behind me.",
  'To talk to a real agent, pick one in the agent menu of the chat (with the `rawp` command line: `--agent <id>`):',
  '- **Claude Code**: install `@anthropic-ai/claude-code` and sign in (`claude auth login`), or set `ANTHROPIC_API_KEY`.',
  '- **Codex**: install `@openai/codex` and sign in (`codex login`), or set an OpenAI API key (`CODEX_API_KEY`).',
  '- **ACP agents** (e.g. Gemini CLI): install the agent and select it as `acp:<name>`.',
  '- **OpenAI-compatible model**: set `rawp.openai.baseUrl`, `rawp.openai.model` and an API key.',
  '',
  'Type `help` to see what I can do without a model.',
].join('\n');
