// The host's own words in every language we speak: the descriptions of the commands the host
// publishes itself (src/commands/hostCommands.ts and bundled.ts) and the phrases of its notices
// (x-rawp.notice `words`, and `rawp run`'s own answers). The frames carry the English; each reader
// says them in its person's language — the view by its locale (webview-ui/src/i18n/*/commands.ts
// re-export these tables), `rawp run` and `rawp attach` by the terminal's (LC_ALL/LC_MESSAGES/LANG).
// A command's `command.*` entry is its published description, word for word: only a description
// that is exactly this is translated, so an agent's own command of the same name keeps its words.
import type { NoticeWords } from './rawpExtension';

export const HOST_PHRASES_EN = {
  'command.compact': 'Compact the conversation context',
  'command.mode': 'Switch the agent mode (default, plan, review)',
  'command.clear': 'Start a new conversation',
  'command.cost': 'Show token usage and cost of this session',
  'command.rename': 'Rename this session',
  'command.stop': 'Cancel the running turn',
  'command.help': 'List the available slash commands',
  'command.review': 'Review the current changes for bugs, risks and missing tests',
  'command.explain': 'Explain how a file, symbol or feature works',
  'command.test': 'Write or extend tests for a file or feature',
  'notice.queued': 'The agent is busy: your prompt is queued and goes out when the turn ends.',
  'notice.renamed': 'The session is now called “{0}”.',
  'notice.rename_blank': '/rename: the name has no visible characters; the session keeps its name.',
  'notice.no_turn': 'No turn is running.',
  'notice.help': 'Slash commands:',
  'notice.clear_elsewhere': '/clear: start a new session from the session list (this session keeps running for the other masters).',
  'notice.not_available': '/{0} is not available for this agent here.',
  'notice.cost': 'This session so far — prompts: {0}, tokens in: {1}, tokens out: {2}, cost: {3} (as the agent reported it).',
  'notice.cost_unreported': 'This session so far — prompts: {0}, tokens in: {1}, tokens out: {2}. This agent reports no cost.',
  'notice.cost_nothing_yet': 'Nothing used yet: no turn has run in this session.',
  'notice.mode_now': 'The mode is now {0}.',
  'notice.compacted': 'The conversation was compacted ({0} → {1} tokens).',
  'notice.clear_run': 'Every rawp run is a new conversation: there was nothing to clear.',
  // Why an agent cannot run (AgentSummary.unavailable_words): clauses said one after another, each
  // with its own punctuation, so each language orders its own sentence (decision 609).
  'agent_reason.not_on_path': '`{0}` not found on PATH',
  'agent_reason.not_anywhere': '`{0}` not found on PATH, in your login shell or the usual install folders',
  'agent_reason.install': '; install it with `npm i -g {0}`',
  'agent_reason.install_or_setting': '; install it with `npm i -g {0}` or set rawp.agents.{1}.path',
  'agent_reason.install_or_env': '; install it with `npm i -g {0}` or set {1} to its path',
  'agent_reason.setting_not_executable': 'the setting rawp.agents.{0}.path ({1}) is not an executable file',
  'agent_reason.env_not_executable': '{0}={1} is not an executable file',
  'agent_reason.no_endpoint': 'no endpoint configured: set a base URL and a model (in the editor the settings rawp.openai.baseUrl and rawp.openai.model; for rawp serve, --base-url and --model)',
  'agent_reason.no_key': '{0} is not set (needed for {1})',
  'agent_reason.not_available': 'not available',
  // §9.2 a plan's YN approval, asked by adapters whose agent presents its plan as a tool call
  // (Claude Code's ExitPlanMode, decision 639); the view recognises the English word for word.
  'plan.question': 'Approve this plan and let the agent start on it?',
  'plan.approve': 'Approve',
  'plan.keep': 'Keep planning',
  // What a permission rule covers (src/tools/permissions/scope.ts and bashRule.ts), shown in the
  // options of a permission question: a folder, the whole workspace, the whole tool, and the two
  // shapes of a Bash rule. The broadest say so in words: `**` alone does not.
  'rule.on_path': '{0} on {1}',
  'rule.anywhere': '{0} anywhere in the workspace',
  'rule.whole_tool': 'every {0} call',
  'rule.bash_prefix': 'Bash: exactly `{0}`, or that command with more file names added (inside the workspace; no options, quotes, $ or other shell syntax)',
  'rule.bash_exact': 'Bash: exactly `{0}`, nothing added ({1} runs other code or commands)',
  'rule.bash_only': 'Bash: exactly `{0}`, nothing added',
} as const;

export type HostPhraseId = keyof typeof HOST_PHRASES_EN;

// 한국어: 위와 같은 id를 모두, 그것만 갖습니다(없거나 남는 id는 컴파일 오류).
export const HOST_PHRASES_KO: Record<HostPhraseId, string> = {
  'command.compact': '대화 맥락을 요약해 줄이기',
  'command.mode': '에이전트 모드 바꾸기 (default=기본, plan=계획, review=검토)',
  'command.clear': '새 대화 시작',
  'command.cost': '이 세션의 토큰 사용량과 비용 보기',
  'command.rename': '이 세션의 이름 바꾸기',
  'command.stop': '진행 중인 턴 취소',
  'command.help': '사용할 수 있는 슬래시 명령어 보기',
  'command.review': '현재 변경 사항에서 버그, 위험, 빠진 테스트 찾기',
  'command.explain': '파일, 심볼, 기능이 어떻게 동작하는지 설명',
  'command.test': '파일이나 기능의 테스트 작성 또는 보강',
  'notice.queued': '에이전트가 작업 중입니다. 프롬프트는 대기열에 있다가 이번 턴이 끝나면 보내집니다.',
  'notice.renamed': '세션 이름이 “{0}”(으)로 바뀌었습니다.',
  'notice.rename_blank': '/rename: 이름에 보이는 글자가 없어 세션 이름을 그대로 둡니다.',
  'notice.no_turn': '진행 중인 턴이 없습니다.',
  'notice.help': '슬래시 명령어:',
  'notice.clear_elsewhere': '/clear: 세션 목록에서 새 세션을 시작하세요(이 세션은 다른 마스터를 위해 계속 실행됩니다).',
  'notice.not_available': '/{0} 명령은 여기서 이 에이전트에 쓸 수 없습니다.',
  'notice.cost': '이 세션의 지금까지 사용량 — 프롬프트: {0}, 입력 토큰: {1}, 출력 토큰: {2}, 비용: {3}(에이전트가 알려 준 값).',
  'notice.cost_unreported': '이 세션의 지금까지 사용량 — 프롬프트: {0}, 입력 토큰: {1}, 출력 토큰: {2}. 이 에이전트는 비용을 알려 주지 않습니다.',
  'notice.cost_nothing_yet': '아직 사용한 것이 없습니다. 이 세션에서 실행된 턴이 없습니다.',
  'notice.mode_now': '이제 모드는 {0}입니다.',
  'notice.compacted': '대화를 요약해 줄였습니다 ({0} → {1} 토큰).',
  'notice.clear_run': 'rawp run은 실행할 때마다 새 대화라서 지울 것이 없었습니다.',
  'agent_reason.not_on_path': 'PATH에서 `{0}`을(를) 찾지 못했습니다',
  'agent_reason.not_anywhere': 'PATH, 로그인 셸, 일반적인 설치 폴더 어디에서도 `{0}`을(를) 찾지 못했습니다',
  'agent_reason.install': '. `npm i -g {0}`로 설치하세요',
  'agent_reason.install_or_setting': '. `npm i -g {0}`로 설치하거나 rawp.agents.{1}.path 설정에 실행 파일 경로를 적으세요',
  'agent_reason.install_or_env': '. `npm i -g {0}`로 설치하거나 {1} 환경 변수에 실행 파일 경로를 지정하세요',
  'agent_reason.setting_not_executable': 'rawp.agents.{0}.path 설정의 경로({1})가 실행 파일이 아닙니다',
  'agent_reason.env_not_executable': '{0}={1}은(는) 실행 파일이 아닙니다',
  'agent_reason.no_endpoint': '엔드포인트가 설정되지 않았습니다. 기본 URL과 모델을 지정하세요 (편집기에서는 설정 rawp.openai.baseUrl과 rawp.openai.model, rawp serve에서는 --base-url과 --model)',
  'agent_reason.no_key': '{0}이(가) 설정되지 않았습니다 ({1}에 필요)',
  'agent_reason.not_available': '사용할 수 없음',
  'plan.question': '이 계획을 승인하고 에이전트가 시작하게 할까요?',
  'plan.approve': '승인',
  'plan.keep': '계속 계획하기',
  'rule.on_path': '{0}: {1} 아래 파일',
  'rule.anywhere': '{0}: 작업 영역의 모든 파일',
  'rule.whole_tool': '모든 {0} 호출',
  'rule.bash_prefix': 'Bash: 정확히 `{0}`, 또는 그 명령에 파일 이름만 더 붙인 것 (작업 영역 안; 옵션, 따옴표, $ 같은 셸 문법은 덧붙일 수 없음)',
  'rule.bash_exact': 'Bash: 정확히 `{0}`만, 덧붙이는 것 없이 ({1}은(는) 다른 코드나 명령을 실행함)',
  'rule.bash_only': 'Bash: 정확히 `{0}`만, 덧붙이는 것 없이',
};

export type HostLanguage = 'en' | 'ko';

const TABLES: Record<HostLanguage, Record<HostPhraseId, string>> = { en: HOST_PHRASES_EN, ko: HOST_PHRASES_KO };

function isPhraseId(id: string): id is HostPhraseId {
  return Object.prototype.hasOwnProperty.call(HOST_PHRASES_EN, id);
}

/** `template` with its `{0}`… replaced by `args` (a missing argument leaves its place as written). */
export function fillPhrase(template: string, args: ReadonlyArray<string | number>): string {
  return template.replace(/\{(\d)\}/g, (whole, i: string) => (args[Number(i)] === undefined ? whole : String(args[Number(i)])));
}

/** One phrase in `lang`, its `{0}`… filled with `args`. */
export function hostPhrase(id: HostPhraseId, args: readonly string[] = [], lang: HostLanguage = 'en'): string {
  return fillPhrase(TABLES[lang][id], args);
}

/** A notice of the host: its English message and its phrase (for readers in other languages). */
export function phrasedNotice(id: HostPhraseId & `notice.${string}`, args?: string[]): { message: string; words: NoticeWords } {
  return { message: hostPhrase(id, args), words: { id: id.slice('notice.'.length), ...(args ? { args } : {}) } };
}

/** A published command's description in `lang`: translated only when it is the host's own English. */
export function hostCommandDescription(name: string, description: string, lang: HostLanguage): string {
  const id = `command.${name}`;
  return isPhraseId(id) && HOST_PHRASES_EN[id] === description ? TABLES[lang][id] : description;
}

/**
 * A host notice in `lang`, for a terminal: its phrase when the id is known, else the English
 * `message` (a newer host). `/help` is its list, one command a line, each description translated
 * (its message is that list in English; a line that is not `/name — description` stays as it is).
 */
export function hostNoticeIn(n: { message: string; words?: NoticeWords }, lang: HostLanguage): string {
  const id = n.words ? `notice.${n.words.id}` : '';
  if (!isPhraseId(id)) return n.message;
  if (id === 'notice.help') {
    return n.message
      .split('\n')
      .map((line) => {
        const m = /^\/(\S+) — (.*)$/.exec(line);
        return m ? `/${m[1]} — ${hostCommandDescription(m[1], m[2], lang)}` : line;
      })
      .join('\n');
  }
  return fillPhrase(TABLES[lang][id], n.words?.args ?? []);
}

export type AgentReasonId = HostPhraseId & `agent_reason.${string}`;

/**
 * Why an agent cannot run, as clauses: the English `reason` every reader gets, and `words` (one
 * phrase per clause) for a reader that says it in its own language (`agentReasonIn`, the view's
 * `unavailableReason`).
 */
export function phrasedReason(...clauses: [AgentReasonId, ...string[]][]): { reason: string; words: NoticeWords[] } {
  return {
    reason: clauses.map(([id, ...args]) => hostPhrase(id, args)).join(''),
    words: clauses.map(([id, ...args]) => ({ id: id.slice('agent_reason.'.length), ...(args.length ? { args } : {}) })),
  };
}

/** An agent's reason in `lang` from its phrases; `reason` (the English) when a phrase is not known here. */
export function agentReasonIn(a: { unavailable_reason?: string; unavailable_words?: readonly NoticeWords[] }, lang: HostLanguage): string | undefined {
  const words = a.unavailable_words;
  if (!words || words.length === 0) return a.unavailable_reason;
  const said: string[] = [];
  for (const w of words) {
    const id = `agent_reason.${w.id}`;
    if (!isPhraseId(id)) return a.unavailable_reason;
    said.push(fillPhrase(TABLES[lang][id], w.args ?? []));
  }
  return said.join('');
}
