// 한국어 문구: 호스트가 직접 알리는 명령어의 설명과 호스트의 알림(x-rawp.notice `words`).
// 표는 src/protocol/hostPhrases.ts 한 곳에 있습니다(뷰, rawp run, rawp attach가 함께 씁니다).
export { HOST_PHRASES_KO as commands } from '../../../../src/protocol/hostPhrases';
