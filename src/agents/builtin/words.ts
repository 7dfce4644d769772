// What the built-in agent says, in English and Korean (decision 572). It has no model to answer in
// the user's language, so the host tells it the language the person reads (VS Code's display
// language; for `rawp serve` and `rawp run`, the locale of its environment) and it speaks that.
// Paths, patterns, commands, tool names and the request words of its grammar stay as typed.
import { GRAMMAR_HELP, CONNECT_HELP } from './grammar';
import { GRAMMAR_HELP_KO, CONNECT_HELP_KO } from './helpKo';
import { failureReasonKo } from './failureReasonsKo';

export type BuiltinLanguage = 'en' | 'ko';

/** `ko`, `ko-KR` or `ko_KR.UTF-8` is Korean; anything else (or nothing) is English. */
export function builtinLanguage(tag: string | undefined): BuiltinLanguage {
  return /^ko(?:[-_.@]|$)/i.test(tag ?? '') ? 'ko' : 'en';
}

/** The language of a process's environment: LC_ALL, then LC_MESSAGES, then LANG (POSIX order). */
export function environmentLanguage(env: Record<string, string | undefined>): string | undefined {
  return env.LC_ALL || env.LC_MESSAGES || env.LANG || undefined;
}

export interface TaskCounts {
  total: number;
  inProgress: number;
  pending: number;
  completed: number;
  cancelled: number;
}

export interface BuiltinWords {
  /** Beside its name in the agent menus. */
  agentDescription: string;
  compactCommand: string;
  compactInstruction: string;
  helpCommand: string;
  grammarHelp: string;
  connectHelp: string;
  parsed(kinds: string[], mode: string): string;
  /** After a prompt of several requests: what each one came to, in order (a headless run prints only the last text). */
  recap(replies: string[], failed: number): string;
  subagentWorking(depth: number, description: string): string;
  /** A tool call that failed: `what` names it (from the phrases below), `detail` is the tool's own output. */
  failed(what: string, code: string | undefined, detail: string): string;
  cancelled(what: string): string;
  reading(path: string): string;
  read(path: string, lines: number, truncated: boolean): string;
  readBinary(path: string): string;
  /** A line of several that is no request (the recap's entry for it). */
  notUnderstood(line: string): string;
  /** Text piped on stdin beside the prompt: read as context by a model, left unread by this grammar. */
  pipedContextUnread(lines: number): string;
  readEmpty(path: string): string;
  readPastEnd(path: string, lines: number, offset: number): string;
  searchingFor(pattern: string): string;
  noMatches(pattern: string): string;
  /** `atLeast`: Grep stopped before the end, so there may be more. */
  found(lines: number, pattern: string, atLeast: boolean): string;
  /** Files a search could not read (too big, unreadable; `undefined`: an unknown number): said after the count, never hidden in it. */
  notSearched(files: number | undefined): string;
  glob: string;
  noFilesMatch(pattern: string): string;
  listing(path: string): string;
  isEmpty(path: string): string;
  /** A listing's count: `entries` when it lists folders too; `more` when the list was cut at `n`. */
  listed(title: string, n: number, entries: boolean, more?: boolean): string;
  writing(path: string): string;
  created(path: string, lines: number): string;
  unchanged(path: string): string;
  updated(path: string, additions: number, deletions: number): string;
  existsUnread(path: string): string;
  running(command: string): string;
  finished(command: string, noOutput: boolean): string;
  timedOut(command: string): string;
  commandCancelled(command: string): string;
  commandFailed(command: string, exit: string | undefined): string;
  updatingTasks: string;
  readingTasks: string;
  tasks(c: TaskCounts, wrote: boolean): string;
  noTasks: string;
  subagent: string;
  subagentFinished: string;
  subagentCannotCompact: string;
  compacted(summary: string): string;
  summary(turns: number, files: string[], tasks: string[], instruction: string | undefined): string;
  replacingIn(path: string): string;
  staleHint(path: string): string;
  replaced(path: string, n: number, additions: number, deletions: number, readFirst: boolean, note: string | undefined): string;
  planTitle: string;
  planSkipped: string;
  planQuestion(steps: number): string;
  approve: string;
  reject: string;
  planDismissed: string;
  planNoAnswer: string;
  planRejected: string;
  planApproved(steps: number, mode: string): string;
  attachedNotText(name: string, bytes: number): string;
  attached(name: string, lines: number, bytes: number): string;
  moreLines(n: number): string;
}

const s = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

export const ENGLISH: BuiltinWords = {
  agentDescription: 'Deterministic, no model: read, find, replace, write, run, todo, plan, delegate — with the real tools and permission prompts.',
  compactCommand: 'Compact the conversation context',
  compactInstruction: 'What to keep',
  helpCommand: 'What the built-in agent understands',
  grammarHelp: GRAMMAR_HELP,
  connectHelp: CONNECT_HELP,
  parsed: (kinds, mode) => `The request parses as: ${kinds.join(', ')}. Mode: ${mode}. No model is involved; each step runs a real tool.`,
  recap: (replies, failed) => `${replies.length} requests${failed > 0 ? `, ${failed} failed` : ''}:\n${replies.map((r, i) => `${i + 1}. ${r}`).join('\n')}`,
  subagentWorking: (depth, description) => `Subagent (depth ${depth}) working on: ${description}`,
  failed: (what, code, detail) => `${what} failed${code ? ` (${code})` : ''}: ${detail}`,
  cancelled: (what) => `${what}: cancelled.`,
  reading: (path) => `Reading \`${path}\``,
  read: (path, lines, truncated) => `Read \`${path}\` (${s(lines, 'line')}${truncated ? ', truncated' : ''}).`,
  readBinary: (path) => `\`${path}\` is a binary file; its contents are not shown.`,
  notUnderstood: (line) => `Not a request I know: \`${line}\`.`,
  pipedContextUnread: (lines) => `The ${lines === 1 ? 'line' : `${lines} lines`} piped on stdin ${lines === 1 ? 'is' : 'are'} context for a model; I take requests from the prompt only, so I left ${lines === 1 ? 'it' : 'them'} unread.`,
  readEmpty: (path) => `Read \`${path}\`: the file is empty.`,
  readPastEnd: (path, lines, offset) => `\`${path}\` has ${s(lines, 'line')}, so there is nothing from line ${offset} on.`,
  searchingFor: (pattern) => `Searching for \`${pattern}\``,
  noMatches: (pattern) => `No matches for \`${pattern}\`.`,
  found: (lines, pattern, atLeast) => `Found ${atLeast ? 'at least ' : ''}${s(lines, 'matching line')} for \`${pattern}\`.`,
  notSearched: (files) => (files === undefined ? 'Some files could not be searched; the Grep result says which.' : `${s(files, 'file')} could not be searched; the Grep result names ${files === 1 ? 'it' : 'them'}.`),
  glob: 'Glob',
  noFilesMatch: (pattern) => `No files match \`${pattern}\`.`,
  listing: (path) => `Listing \`${path}\``,
  isEmpty: (path) => `\`${path}\` is empty.`,
  listed: (title, n, entries, more) => `${title}: ${more ? 'more than ' : ''}${entries ? s(n, 'entry', 'entries') : s(n, 'file')}.`,
  writing: (path) => `Writing \`${path}\``,
  created: (path, lines) => `Created \`${path}\` (${s(lines, 'line')}).`,
  unchanged: (path) => `\`${path}\` already had exactly this content.`,
  updated: (path, a, d) => `Updated \`${path}\` (+${a} −${d}).`,
  existsUnread: (path) => `\`${path}\` already exists and I have not read it in this session, so I will not overwrite it. Send \`read ${path}\` first, then repeat the write.`,
  running: (command) => `Running \`${command}\``,
  finished: (command, noOutput) => `\`${command}\` finished${noOutput ? ' (no output)' : ''}.`,
  timedOut: (command) => `\`${command}\` timed out.`,
  commandCancelled: (command) => `\`${command}\` was cancelled.`,
  commandFailed: (command, exit) => `\`${command}\` failed${exit ? ` with exit code ${exit}` : ''}.`,
  updatingTasks: 'Updating the task list',
  readingTasks: 'Reading the task list',
  tasks: (c, wrote) =>
    `${wrote ? 'Task list updated' : 'Task list'}: ${s(c.total, 'task')} (${c.inProgress} in progress, ${c.pending} to do, ${c.completed} done${c.cancelled > 0 ? `, ${c.cancelled} cancelled` : ''}).`,
  noTasks: 'The task list is empty.',
  subagent: 'The subagent',
  subagentFinished: 'The subagent finished.',
  subagentCannotCompact: 'A subagent cannot compact the session.',
  compacted: (summary) => `Context compacted. ${summary}`,
  summary: (turns, files, tasks, instruction) =>
    [
      `Conversation of ${turns} turn(s) with the built-in agent.`,
      files.length ? `Files modified: ${files.join(', ')}.` : 'No files modified.',
      tasks.length ? `Open tasks: ${tasks.join('; ')}.` : 'No open tasks.',
      instruction ? `Kept as asked: ${instruction}` : '',
    ]
      .filter(Boolean)
      .join(' '),
  replacingIn: (path) => `Replacing in \`${path}\``,
  staleHint: (path) => ` Someone changed the file since I read it; send \`read ${path}\` and try again.`,
  replaced: (path, n, a, d, readFirst, note) =>
    `${readFirst ? `I read \`${path}\` first (edits need a read). ` : ''}Replaced ${s(n, 'occurrence')} in \`${path}\` (+${a} −${d}).${note ? ` Note: ${note}.` : ''}`,
  planTitle: '## Plan',
  planSkipped: ' _(not something I can do without a model; will be skipped)_',
  planQuestion: (steps) => `Carry out this plan (${s(steps, 'step')})?`,
  approve: 'Approve',
  reject: 'Reject',
  planDismissed: 'The plan was dismissed.',
  planNoAnswer: 'No answer came: the plan was not carried out.',
  planRejected: 'Plan rejected: nothing was done.',
  planApproved: (steps, mode) => `Plan approved. Carrying out ${s(steps, 'step')}${mode !== 'default' ? ` (in ${mode} mode, so writes and commands will be refused)` : ''}.`,
  attachedNotText: (name, bytes) => `Attached file ${name} is not UTF-8 text (${bytes} bytes); I cannot read it.`,
  attached: (name, lines, bytes) => `Attached file ${name} (${lines} line(s), ${bytes} bytes):`,
  moreLines: (n) => `… ${n} more line(s)`,
};

// Korean: the 합니다 style of VS Code's Korean UI. A noun after a path (`파일`, `명령`, `패턴`)
// carries the particle, so no particle depends on how a path's last letter is read.
/** The modes as the chat's Mode menu says them in Korean (webview-ui/src/i18n/ko/header.ts). */
const KOREAN_MODES: Record<string, string> = { default: '기본', plan: '계획', review: '검토' };

export const KOREAN: BuiltinWords = {
  agentDescription: '모델 없이 늘 같은 방식으로: read, find, replace, write, run, todo, plan, delegate — 실제 도구와 권한 확인을 거칩니다.',
  compactCommand: '대화 컨텍스트 압축',
  compactInstruction: '남길 것',
  helpCommand: '내장 에이전트가 이해하는 요청',
  grammarHelp: GRAMMAR_HELP_KO,
  connectHelp: CONNECT_HELP_KO,
  // The request words (read, find, …) are the grammar's own and stay; a line it did not understand is said in Korean.
  // The mode as the chat's Mode menu names it in Korean (the UI trial of 2026-12-06 read "모드: default").
  parsed: (kinds, mode) => `요청을 이렇게 읽었습니다: ${kinds.map((k) => (k === 'unknown' ? '알 수 없는 요청' : k)).join(', ')}. 모드: ${KOREAN_MODES[mode] ?? mode}. 모델 없이, 단계마다 실제 도구를 실행합니다.`,
  recap: (replies, failed) => `요청 ${replies.length}개${failed > 0 ? `, 그중 ${failed}개 실패` : ''}:\n${replies.map((r, i) => `${i + 1}. ${r}`).join('\n')}`,
  subagentWorking: (depth, description) => `하위 에이전트(깊이 ${depth})가 맡은 일: ${description}`,
  failed: (what, code, detail) => {
    const why = failureReasonKo(code);
    return why ? `${what}에 실패했습니다 (${code}). ${why} 도구의 설명(영어): ${detail}` : `${what}에 실패했습니다${code ? ` (${code})` : ''}: ${detail}`;
  },
  cancelled: (what) => `${what}: 취소되었습니다.`,
  reading: (path) => `\`${path}\` 파일 읽기`,
  read: (path, lines, truncated) => `\`${path}\` 파일을 읽었습니다 (${lines}줄${truncated ? ', 일부만' : ''}).`,
  readBinary: (path) => `\`${path}\` 파일은 바이너리 파일이라 내용을 보여 주지 않습니다.`,
  notUnderstood: (line) => `알 수 없는 요청입니다: \`${line}\`.`,
  pipedContextUnread: (lines) => `stdin으로 들어온 ${lines}줄은 모델에게 주는 맥락입니다. 저는 프롬프트에서만 요청을 받으므로 읽지 않았습니다.`,
  readEmpty: (path) => `\`${path}\` 파일을 읽었습니다. 빈 파일입니다.`,
  readPastEnd: (path, lines, offset) => `\`${path}\` 파일은 ${lines}줄이라 ${offset}번째 줄부터는 내용이 없습니다.`,
  searchingFor: (pattern) => `\`${pattern}\` 패턴 검색`,
  noMatches: (pattern) => `\`${pattern}\` 패턴과 일치하는 줄이 없습니다.`,
  found: (lines, pattern, atLeast) => `\`${pattern}\` 패턴과 일치하는 줄 ${atLeast ? '최소 ' : ''}${lines}개를 찾았습니다.`,
  notSearched: (files) => (files === undefined ? '일부 파일은 검색하지 못했습니다. 어느 파일인지 Grep 결과에 나와 있습니다.' : `파일 ${files}개는 검색하지 못했습니다. Grep 결과에 그 이름이 나와 있습니다.`),
  glob: '파일 찾기(Glob)',
  noFilesMatch: (pattern) => `\`${pattern}\` 패턴과 일치하는 파일이 없습니다.`,
  listing: (path) => `\`${path}\` 목록 보기`,
  isEmpty: (path) => `\`${path}\` 폴더가 비어 있습니다.`,
  listed: (title, n, entries, more) => `${title}: ${entries ? '항목' : '파일'} ${n}개${more ? ' 초과' : ''}.`,
  writing: (path) => `\`${path}\` 파일 쓰기`,
  created: (path, lines) => `\`${path}\` 파일을 만들었습니다 (${lines}줄).`,
  unchanged: (path) => `\`${path}\` 파일의 내용이 이미 이것과 똑같습니다.`,
  updated: (path, a, d) => `\`${path}\` 파일을 고쳤습니다 (+${a} −${d}).`,
  existsUnread: (path) => `\`${path}\` 파일이 이미 있고 이 세션에서 읽지 않았으므로 덮어쓰지 않습니다. 먼저 \`read ${path}\` 요청을 보낸 뒤 쓰기를 다시 요청하세요.`,
  running: (command) => `\`${command}\` 명령 실행`,
  finished: (command, noOutput) => `\`${command}\` 명령이 끝났습니다${noOutput ? ' (출력 없음)' : ''}.`,
  timedOut: (command) => `\`${command}\` 명령이 제한 시간을 넘겼습니다.`,
  commandCancelled: (command) => `\`${command}\` 명령이 취소되었습니다.`,
  commandFailed: (command, exit) => `\`${command}\` 명령이 ${exit ? `종료 코드 ${exit}(으)로 ` : ''}실패했습니다.`,
  updatingTasks: '작업 목록 고치기',
  readingTasks: '작업 목록 읽기',
  tasks: (c, wrote) =>
    `${wrote ? '작업 목록을 고쳤습니다' : '작업 목록'}: 작업 ${c.total}개 (진행 중 ${c.inProgress}, 할 일 ${c.pending}, 완료 ${c.completed}${c.cancelled > 0 ? `, 취소 ${c.cancelled}` : ''}).`,
  noTasks: '작업 목록이 비어 있습니다.',
  subagent: '하위 에이전트',
  subagentFinished: '하위 에이전트가 일을 마쳤습니다.',
  subagentCannotCompact: '하위 에이전트는 세션을 압축할 수 없습니다.',
  compacted: (summary) => `컨텍스트를 압축했습니다. ${summary}`,
  summary: (turns, files, tasks, instruction) =>
    [
      `내장 에이전트와 나눈 대화 ${turns}턴.`,
      files.length ? `수정한 파일: ${files.join(', ')}.` : '수정한 파일 없음.',
      tasks.length ? `남은 작업: ${tasks.join('; ')}.` : '남은 작업 없음.',
      instruction ? `요청대로 남긴 것: ${instruction}` : '',
    ]
      .filter(Boolean)
      .join(' '),
  replacingIn: (path) => `\`${path}\` 파일에서 바꾸기`,
  staleHint: (path) => ` 제가 읽은 뒤에 누군가 파일을 바꿨습니다. \`read ${path}\` 요청을 보낸 뒤 다시 시도하세요.`,
  replaced: (path, n, a, d, readFirst, note) =>
    `${readFirst ? `고치려면 먼저 읽어야 해서 \`${path}\` 파일을 읽었습니다. ` : ''}\`${path}\` 파일에서 ${n}곳을 바꿨습니다 (+${a} −${d}).${note ? ` 참고: ${note}.` : ''}`,
  planTitle: '## 계획',
  planSkipped: ' _(모델 없이는 할 수 없는 일이라 건너뜁니다)_',
  planQuestion: (steps) => `이 계획(${steps}단계)을 실행할까요?`,
  approve: '승인',
  reject: '거절',
  planDismissed: '계획이 닫혔습니다.',
  planNoAnswer: '답이 오지 않아 계획을 실행하지 않았습니다.',
  planRejected: '계획이 거절되어 아무것도 하지 않았습니다.',
  planApproved: (steps, mode) => `계획이 승인되었습니다. ${steps}단계를 실행합니다${mode !== 'default' ? ` (${mode} 모드라서 쓰기와 명령은 거부됩니다)` : ''}.`,
  attachedNotText: (name, bytes) => `첨부 파일 ${name}은(는) UTF-8 텍스트가 아니어서(${bytes}바이트) 읽을 수 없습니다.`,
  attached: (name, lines, bytes) => `첨부 파일 ${name} (${lines}줄, ${bytes}바이트):`,
  moreLines: (n) => `… ${n}줄 더`,
};

export function builtinWords(language: BuiltinLanguage): BuiltinWords {
  return language === 'ko' ? KOREAN : ENGLISH;
}
