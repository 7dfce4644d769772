// A question of the agent as a person reads and hears it: the card (view/interaction.tsx), Find in
// chat (view/findText.ts) and the screen reader's announcement (state/announcements.ts) use this one
// function, so what is heard is what is shown — in the reader's language.
import type { InteractionBlock } from '../../../src/protocol/transcript';
import { en } from './en';
import { t } from './index';

/** The question as a person reads it: our broker's "Allow <tool> <target>?" in the reader's
 *  language with the workspace-relative target; any other question as the agent wrote it. */
export function questionText(block: InteractionBlock): string {
  const req = block.request;
  // The host's plan approval (§9.2, decision 639), word for word.
  if (req.interaction_type === 'YN' && req.question_text === en['plan.question']) return t('plan.question');
  const m = /^(OUTSIDE THE WORKSPACE: )?Allow (\S+) (.+)\?$/s.exec(req.question_text);
  if (req.interaction_type !== 'PERMISSION' || !m || m[2] !== req.context?.tool_name) return req.question_text;
  const q = t('permission.question', m[2], m[3]);
  return m[1] ? `${t('permission.outside')} ${q}` : q;
}
