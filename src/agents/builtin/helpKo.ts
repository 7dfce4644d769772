// The built-in agent's two help texts in Korean (words.ts; the English ones are beside the grammar
// they describe, grammar.ts). The request words stay English: they are the grammar.
export const GRAMMAR_HELP_KO = [
  '저는 내장 오프라인 에이전트입니다. 모델 없이, 아래 요청을 실제 도구로 처리합니다.',
  '',
  '- `read <경로>` (또는 `read @파일`, `read <경로> lines 10-20`) — 파일 읽기(Read)',
  '- `find <정규식>` / `find <정규식> in <경로>` — 정규식으로 찾기(Grep)',
  '- `files <glob>` — 파일 찾기(Glob), 예: `files src/**/*.ts`',
  '- `ls [경로]` — 폴더 목록',
  '- ``replace `old` with `new` in <경로>`` (`replace all …`도 됩니다) — 고치기(Edit, 먼저 파일을 읽습니다)',
  '- `write <경로>: <내용>` — 파일 쓰기(Write, 새 파일이나 이 세션에서 읽은 파일만)',
  '- ``run `명령` `` — 명령 실행(Bash), 출력이 실시간으로 보입니다',
  '- `todo: a; b; c` — 작업 목록 쓰기(TodoWrite); `todos` — 작업 목록 읽기(TodoRead)',
  '- `plan: 단계; 단계; …` — 계획 문서를 만들고, 승인을 받은 뒤 단계를 실행합니다',
  '- `delegate: <요청>` — 요청을 하위 에이전트에게 맡깁니다(Task)',
  '- `/compact [지시]` — 컨텍스트 압축',
  '- `help` — 이 목록',
  '',
  '한 프롬프트에 요청을 여러 줄로 적을 수 있습니다. `write`는 그 뒤의 모든 줄을 내용으로 쓰므로 맨 끝에 두세요.',
].join('\n');

export const CONNECT_HELP_KO = [
  '저는 내장 오프라인 에이전트라서 자유로운 문장은 이해하지 못합니다. 제 뒤에는 모델이 없습니다.',
  '실제 에이전트와 대화하려면 채팅의 에이전트 메뉴에서 고르세요(`rawp` 명령줄에서는 `--agent <id>`):',
  '- **Claude Code**: `@anthropic-ai/claude-code`를 설치하고 로그인하거나(`claude auth login`), `ANTHROPIC_API_KEY`를 설정하세요.',
  '- **Codex**: `@openai/codex`를 설치하고 로그인하거나(`codex login`), OpenAI API 키(`CODEX_API_KEY`)를 설정하세요.',
  '- **ACP 에이전트**(예: Gemini CLI): 에이전트를 설치하고 `acp:<이름>`으로 고르세요.',
  '- **OpenAI 호환 모델**: `rawp.openai.baseUrl`, `rawp.openai.model`과 API 키를 설정하세요.',
  '',
  '모델 없이 할 수 있는 일을 보려면 `help`를 입력하세요.',
].join('\n');
