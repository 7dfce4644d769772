// 한국어 문구: 상태 표시줄과 에이전트 상태.
// en/status.ts와 같은 id를 모두, 그것만 갖습니다(없거나 남는 id는 컴파일 오류).
import type { status as english } from '../en/status';

export const status: Record<keyof typeof english, string> = {
  'status.connecting': '연결 중',
  'status.notConnected': '연결되지 않음',
  'status.agentLabel': '에이전트: {0}',
  'status.disconnected': '연결 끊김',
  'status.usage': '사용량',
  'status.tokens': '이 세션의 입력/출력 토큰',
  'status.tokensInOut': '입력 {0} · 출력 {1}',
  'status.cost': '비용({0})',
  'status.context': '사용한 컨텍스트 창',
  'status.contextOf': '{1}토큰 중 {0}',
  'status.errors': '오류',
  'status.errorCount': '오류: {0}',
  'status.warningCount': '경고: {0}',
  'state.idle': '준비됨',
  'status.ended': '세션 끝남',
  'state.thinking': '생각하는 중',
  'state.tool_calling': '도구 사용 중',
  'state.awaiting_input': '응답을 기다리는 중',
  'state.error': '오류로 멈춤',
  'state.other': '작업 중',
};
