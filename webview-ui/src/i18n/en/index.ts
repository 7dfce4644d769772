// English words of the chat, by message id: one catalogue, kept in one small file per area of the
// view. Every id has its Korean in ../ko (each Korean area file is typed by its English area, so a
// missing or extra id is a compile error). `{0}`, `{1}`… are arguments of t(). Protocol codes (error
// codes, interaction kinds, risk levels, stop reasons) each have a sentence under `code.*` / `kind.*`
// / `risk.*` / `stop.*`; the code itself stays in the tooltip and the logs (issue 15 Why 6).
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

/** The areas, each an object of its own ids; an id lives in exactly one area (i18n.test.ts). */
export const AREAS = { app, header, status, composer, transcript, blocks, outputs, interactions, codes, onboarding, checkpoint, commands } as const;

export const en = {
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
} as const;

export type MessageId = keyof typeof en;

export function isMessageId(id: string): id is MessageId {
  return Object.prototype.hasOwnProperty.call(en, id);
}
