// Where each frame a peer (the webview, a remote master) sends goes inside the session engine
// (engine.ts `handle`). Routing only: the policy lives in the handlers.
import type { AgentModeName } from '../protocol/common';
import type { Frame, PayloadOf } from '../protocol/frameTypes';
import type { ConnectionKind } from './connection';
import type { FileTransferPayload } from './contextFiles';
import type { DeletedBy, DeleteReason, RenamedBy } from './engineOptions';
import type { FileSearches } from './fileSearches';
import type { InteractionBook } from './interactions';
import type { Logger } from './ports';

export interface PeerFrameHandlers {
  prompt(payload: PayloadOf<'control.prompt.request'>, parent_id: string): void;
  cancel(target_turn_id: string, reason: string | undefined, parent_id: string): void;
  compact(trigger: PayloadOf<'session.compacted'>['trigger'], instruction: string | undefined, target_token_ratio: number | undefined, parent_id: string): Promise<void>;
  switchMode(mode: AgentModeName, parent_id: string): Promise<void>;
  /** False when the name has nothing visible left (decision 566). */
  rename(name: string, renamed_by: RenamedBy): boolean;
  end(reason: DeleteReason, deleted_by: DeletedBy): Promise<void>;
  fileAnnounced(payload: FileTransferPayload, parent_id: string): void;
  /** A non-fatal session.error answering `parent_id`. */
  error(error_code: string, message: string, parent_id: string): void;
  readonly interactions: InteractionBook;
  readonly searches: FileSearches;
  readonly logger: Logger;
}

export function routePeerFrame(frame: Frame, from: { connection_id: string; kind: ConnectionKind }, to: PeerFrameHandlers): void {
  const kind = from.kind;
  switch (frame.type) {
    case 'control.prompt.request':
      return to.prompt(frame.payload, frame.message_id);
    case 'control.prompt.cancel':
      return to.cancel(frame.payload.target_turn_id, frame.payload.reason, frame.message_id);
    case 'control.interaction.response': {
      const r = to.interactions.respond(frame.payload);
      if (!r.ok) to.error(r.code, r.message, frame.message_id);
      return;
    }
    case 'control.interaction.timeout': {
      const r = to.interactions.timeout(frame.payload.interaction_id);
      if (!r.ok) to.error(r.code, r.message, frame.message_id);
      return;
    }
    case 'control.session.compact':
      void to.compact(kind === 'local' ? 'manual' : 'requested', frame.payload.instruction, frame.payload.target_token_ratio, frame.message_id);
      return;
    case 'control.mode.switch':
      void to.switchMode(frame.payload.mode, frame.message_id);
      return;
    case 'control.file.search':
      void to.searches.search(frame.payload, frame.message_id, from.connection_id);
      return;
    case 'control.file.search.cancel':
      to.searches.cancel(frame.payload.query_id, from.connection_id);
      return;
    case 'session.renamed':
      if (!to.rename(frame.payload.name, frame.payload.renamed_by)) to.error('INVALID_PAYLOAD', 'the session was not renamed: the name has no visible characters', frame.message_id);
      return;
    case 'session.deleted':
      void to.end(frame.payload.reason, frame.payload.deleted_by);
      return;
    case 'agent.file.transfer':
      return to.fileAnnounced(frame.payload, frame.message_id);
    case 'session.error':
      // §7.4.1: `fatal: true` starts the end-of-session procedure — §7.5.3 clean-up frames,
      // then session.deleted (§7.7.1), then the connections close. A non-fatal one is noted.
      if (frame.payload.fatal) {
        to.logger.warn(`fatal session.error from a peer: ${frame.payload.error_code}: ${frame.payload.message}`);
        void to.end('error', kind === 'local' ? 'client' : 'master');
      } else to.logger.info(`peer session.error ${frame.payload.error_code} noted`, { message: frame.payload.message });
      return;
    default:
      to.logger.info(`peer frame ${frame.type} noted`, { payload: frame.payload });
  }
}
