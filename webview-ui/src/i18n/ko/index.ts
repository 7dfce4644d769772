// 채팅 화면의 한국어 문구. 영역마다 ../en의 같은 영역 파일과 같은 메시지 id를 모두, 그것만 갖고
// (없거나 남는 id는 컴파일 오류), 여기서 합친 전체도 MessageId를 모두 가져야 합니다.
import type { MessageId } from '../en';
import { app } from './app';
import { blocks } from './blocks';
import { checkpoint } from './checkpoint';
import { codes } from './codes';
import { commands } from './commands';
import { composer } from './composer';
import { header } from './header';
import { interactions } from './interactions';
import { onboarding } from './onboarding';
import { outputs } from './outputs';
import { status } from './status';
import { transcript } from './transcript';

/** The Korean areas, by the same names as the English ones (i18n.test.ts compares them). */
export const AREAS = { app, header, status, composer, transcript, blocks, outputs, interactions, codes, onboarding, checkpoint, commands } as const;

export const ko: Record<MessageId, string> = {
  ...app,
  ...header,
  ...status,
  ...composer,
  ...transcript,
  ...blocks,
  ...outputs,
  ...interactions,
  ...codes,
  ...onboarding,
  ...checkpoint,
  ...commands,
};
