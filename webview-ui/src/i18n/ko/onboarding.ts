// 한국어 문구: 로그인 안내 카드(결정 381)와 첫 실행 안내(결정 383).
// en/onboarding.ts와 같은 id를 모두, 그것만 갖습니다(없거나 남는 id는 컴파일 오류).
import type { onboarding as english } from '../en/onboarding';

export const onboarding: Record<keyof typeof english, string> = {
  'login.title': '{0}에 로그인되어 있지 않습니다.',
  'login.terminalStep': '터미널에서 한 번 로그인하세요:',
  'login.thenRetry': '그런 다음 메시지를 다시 보내세요.',
  'login.keyStep': '또는 {0} API 키를 사용하세요. 키는 VS Code 보안 저장소에 보관되며 {1}에만 전달됩니다.',
  'login.terminalButton': '터미널에서 로그인',
  'login.keyButton': '{0} API 키 설정',
  'login.agentSaid': '에이전트의 원래 메시지',
  'login.followUp.acp:gemini': '그다음 “Login with Google”을 고르세요(또는 /auth 입력)',
  'firstrun.agent': '지금 대화 상대는 {0}입니다.',
  'firstrun.switch': '다른 에이전트를 쓰려면 위의 에이전트 메뉴에서 고르거나 “RAWP: 에이전트 선택…”을 실행하세요.',
  'firstrun.builtin': '내장 에이전트는 모델 없이 오프라인으로 동작합니다(help 입력). 실제 에이전트를 쓰려면 Claude Code, Codex 또는 Gemini CLI를 설치하세요. PATH, 로그인 셸, 일반적인 설치 폴더에서 찾으며 rawp.agents.<name>.path로 지정할 수도 있습니다.',
  'firstrun.switch.browser': '다른 에이전트를 쓰려면 위의 에이전트 메뉴에서 고르세요.',
  'firstrun.builtin.browser': '내장 에이전트는 모델 없이 오프라인으로 동작합니다(help 입력). 실제 에이전트를 쓰려면 rawp serve가 실행되는 컴퓨터에 Claude Code, Codex 또는 Gemini CLI를 설치한 뒤 에이전트 메뉴에서 고르거나 rawp serve를 --agent와 함께 시작하세요.',
  'firstrun.tips': '@로 파일을 참조하고 /로 명령을 씁니다.',
  'firstrun.missing': '여기서 실행할 수 없는 에이전트 ({0})',
};
