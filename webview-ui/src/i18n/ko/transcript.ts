// 한국어 문구: 대화 기록: 턴, 구조화된 출력, 종료 이유.
// en/transcript.ts와 같은 id를 모두, 그것만 갖습니다(없거나 남는 id는 컴파일 오류).
import type { transcript as english } from '../en/transcript';

export const transcript: Record<keyof typeof english, string> = {
  'transcript.label': '대화',
  'transcript.empty': '아직 메시지가 없습니다. 아래에서 에이전트에게 물어보세요.',
  'turn.label': '{0}번째 턴',
  'turn.partial': '일부',
  'turn.partialTitle': '이 턴의 시작 부분을 받지 못했습니다',
  'turn.toolCalls1': '도구 호출 1회',
  'turn.toolCallsN': '도구 호출 {0}회',
  'turn.tokens': '입력 {0} / 출력 {1}',
  'turn.structured': '구조화된 출력: {0}',
  'turn.structuredWithheld': '구조화된 출력을 보류했습니다: {0}',
  'turn.structuredSummary': '구조화된 출력',
  'turn.structuredRevalidated': '구조화된 출력(여기서 다시 검증함)',
  'validation.valid': '유효함',
  'validation.partial': '일부 유효함',
  'validation.failed': '유효하지 않음',
  'stop.end_turn': '완료',
  'stop.max_tokens': '중단됨: 응답이 길이 제한에 도달했습니다',
  'stop.cancelled': '사용자가 중지함',
  'stop.error': '오류로 중단됨',
  'stop.tool_use': '도구 실행 중에 중단됨',
  'stop.awaiting_input': '답변을 기다리는 중',
  'stop.disconnected': '턴이 끝나기 전에 연결이 끊겼습니다',
  'stop.unknown': '중단됨',
};
