// 한국어 문구: 앱, 오류 경계, 배너, 작업 목록, 화면 낭독기가 읽는 문장.
// en/app.ts와 같은 id를 모두, 그것만 갖습니다(없거나 남는 id는 컴파일 오류).
import type { app as english } from '../en/app';

export const app: Record<keyof typeof english, string> = {
  'app.label': 'RAWP 채팅',
  'app.copied': '복사됨',
  'app.copyCode': '코드 복사',
  'boundary.failed': '이 항목을 표시할 수 없습니다({0}).',
  'banner.truncated': '아래 대화의 일부가 빠져 있을 수 있습니다.',
  'banner.lostDisconnected': '연결이 끊긴 동안 이 세션 기록의 일부가 유실되었습니다.',
  'banner.lostDisconnected1': '연결이 끊긴 동안 이 세션 기록의 일부(약 1개 프레임)가 유실되었습니다.',
  'banner.lostDisconnectedN': '연결이 끊긴 동안 이 세션 기록의 일부(약 {0}개 프레임)가 유실되었습니다.',
  'banner.lostBudget': '이 세션의 오래된 기록은 호스트가 보관하는 기록 한도를 넘어 표시되지 않습니다.',
  'banner.lostBudget1': '이 세션의 오래된 기록(약 1개 프레임)은 호스트가 보관하는 기록 한도를 넘어 표시되지 않습니다.',
  'banner.lostBudgetN': '이 세션의 오래된 기록(약 {0}개 프레임)은 호스트가 보관하는 기록 한도를 넘어 표시되지 않습니다.',
  'banner.deleted': '이 세션은 종료되었습니다({0}).',
  'banner.dismiss': '닫기',
  'deleted.user_request': '직접 종료함',
  'deleted.master_request': '다른 창에서 종료함',
  'deleted.timeout': '오래 사용하지 않음',
  'deleted.error': '오류 발생',
  'tasks.label': '작업',
  'tasks.toggle': '작업 {0}/{1}',
  'tasks.list': '작업 목록',
  'spoken.answer': '에이전트: {0}',
  'spoken.more': '… (나머지는 대화에 있습니다)',
  'spoken.permission': '권한이 필요합니다: {0}. 허용 및 거부 버튼은 대화에 있습니다.',
  'spoken.question': '에이전트의 질문: {0}',
  'spoken.turnDone': '에이전트가 작업을 마쳤습니다.',
  'spoken.turnStopped': '턴 종료: {0}.',
};
