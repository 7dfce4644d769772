// 한국어 문구: 대화 블록: 계획, 생각, 하위 에이전트, 압축, 파일 전송.
// en/blocks.ts와 같은 id를 모두, 그것만 갖습니다(없거나 남는 id는 컴파일 오류).
import type { blocks as english } from '../en/blocks';

export const blocks: Record<keyof typeof english, string> = {
  'block.synthetic': '연결 끊김',
  'block.syntheticTitle': '연결이 끊겨 이쪽에서 닫았습니다(§7.8.1)',
  'block.cancelled': '취소됨',
  'block.plan': '계획',
  'block.approvePlan': '계획 승인',
  'block.rejectPlan': '계획 거부',
  'block.thought': '생각',
  'block.thinking': '생각하는 중…',
  'block.redacted': '숨김',
  'block.yourPrompt': '내 프롬프트',
  'block.parallel': '{0}개 동시 실행',
  'block.parallelLabel': '동시에 실행한 도구 호출 {0}개',
  'block.subagent': '하위 에이전트',
  'block.subagentLabel': '하위 에이전트 {0}(깊이 {1})',
  'block.trace': '자세히',
  'block.notRecoverable': '에이전트 중단됨',
  'block.compacted': '컨텍스트를 압축했습니다({0}): {1} → {2}토큰',
  'block.summary': '요약',
  'block.fileTransfer': '파일 전송 {0}',
  'file.download': '{0} 다운로드',
  'file.preview': '{0} 미리 보기',
  'file.loading': '{0} 불러오는 중…',
  'file.unavailable': '{0}(여기서는 사용할 수 없음)',
  'block.recovered': '복구됨',
  'compaction.auto': '자동',
  'compaction.manual': '요청에 따라',
  'compaction.requested': '에이전트 요청',
  'block.approvePlanLabel': '계획 승인: {0}',
};
