// 한국어 문구: 입력창과 첨부 파일(§6.1.1).
// en/composer.ts와 같은 id를 모두, 그것만 갖습니다(없거나 남는 id는 컴파일 오류).
import type { composer as english } from '../en/composer';

export const composer: Record<keyof typeof english, string> = {
  'attach.list': "첨부한 파일",
  'attach.remove': "{0} 제거",
  'attach.storing': "첨부하는 중…",
  'attach.pasted': "붙여넣은 파일",
  'attach.bytes': "{0}바이트",
  'attach.kilobytes': "{0}KB",
  'attach.megabytes': "{0}MB",
  'attach.tooMany': "메시지 하나에는 파일을 최대 {0}개까지 첨부할 수 있습니다.",
  'attach.tooLarge': "{0}이(가) 한도 {1}보다 커서 첨부하지 않았습니다.",
  'attach.unreadable': "{0}을(를) 읽을 수 없어 첨부하지 않았습니다.",
  'attach.notAttached': '{0}을(를) 첨부하지 못했습니다: {1}',
  'attach.noUrl': '호스트가 파일을 저장한 위치를 알려 주지 않았습니다',
  'attach.button': "파일 첨부",
  'attach.wait': "첨부한 파일이 준비될 때까지 기다려 주세요",
  'composer.label': '에이전트에게 메시지 보내기',
  'composer.placeholder': '에이전트에게 물어보세요… (@ 파일, / 명령)',
  'composer.placeholderNoFiles': '에이전트에게 물어보세요… (/ 명령)',
  'composer.files': '파일',
  'composer.commands': '명령',
  'composer.noFiles': '일치하는 파일이 없습니다',
  'composer.searching': '검색 중…',
  'composer.moreFiles': '더 많은 파일이 일치합니다. 계속 입력하세요',
  'composer.noCommand': '일치하는 명령이 없습니다',
  'composer.stop': '중지',
  'composer.stopLabel': '진행 중인 턴 중지(Esc)',
  'composer.send': '보내기(Enter)',
  'composer.sendCtrl': '보내기(Ctrl+Enter)',
  'composer.history': '↑ 키로 이전 프롬프트 불러오기',
};
