// 한국어 문구: 호스트가 직접 알리는 명령어의 설명과 호스트의 알림(x-rawp.notice `words`).
// en/commands.ts와 같은 id를 모두, 그것만 갖습니다(없거나 남는 id는 컴파일 오류).
import type { commands as english } from '../en/commands';

export const commands: Record<keyof typeof english, string> = {
  'command.compact': '대화 맥락을 요약해 줄이기',
  'command.mode': '에이전트 모드 바꾸기 (default, plan, review)',
  'command.clear': '새 대화 시작',
  'command.model': '모델 보기 또는 고르기',
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
} as const;
