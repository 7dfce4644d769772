// `rawp convert --from codex`: captured `codex exec --json` stdout (one or more turns, e.g. a first
// run and its `exec resume` runs appended) -> DPS frames, through the live adapter's translator.
// A capture has no files, so a file change shows its list of changes instead of a diff.
import { FrameWriter } from '../convert/frameWriter';
import { jsonLines, registerConverter, type ConvertOptions, type ConvertResult } from '../convert/registry';
import { CODEX_TOOLS } from './catalog';
import { CODEX_INFO, codexCapabilities } from './capabilities';
import { CodexTurnTranslator, turnUsageSince } from './translate';
import type { CodexUsage } from './nativeEvents';
import { authRequiredError } from '../authRequired';

export function convertCodex(lines: Iterable<string>, options: ConvertOptions = {}): ConvertResult {
  const catalog = CODEX_TOOLS.map((t) => ({ ...t }));
  let threadId: string | undefined;
  const writer = new FrameWriter({ info: CODEX_INFO, session_id: options.session_id, fallbackOpening: () => ({ capabilities: codexCapabilities(threadId), tools: catalog, commands: [] }) });
  const warnings: ConvertResult['warnings'] = [];
  let current = 0;
  let threadUsage: CodexUsage | undefined;
  let translator = newTranslator();

  function newTranslator(): CodexTurnTranslator {
    return new CodexTurnTranslator({ emit: (e) => writer.event(e), catalog, onUnknown: (what) => warnings.push({ line: current, message: what }) });
  }

  /** A turn the API refused with 401: the one AUTH_REQUIRED the live adapter reports (decision 441). */
  function authCard(): void {
    if (translator.authFailure === undefined) return;
    writer.event(authRequiredError('codex', CODEX_INFO.displayName, { trace: translator.authFailure, details: { http_status: 401 } }));
    translator.authFailure = undefined;
  }

  function endTurn(): void {
    translator.closeNow('ended');
    const failed401 = translator.authFailure !== undefined;
    authCard();
    const usage = translator.threadUsage ? turnUsageSince(threadUsage, translator.threadUsage) : undefined;
    if (translator.threadUsage) threadUsage = translator.threadUsage;
    writer.endTurn({ stop_reason: translator.end === 'failed' || failed401 ? 'error' : 'end_turn', ...(usage ? { usage } : {}), ...(threadId ? { agent_session_id: threadId } : {}) });
    translator = newTranslator();
  }

  for (const { line, value } of jsonLines(lines, warnings)) {
    current = line;
    const type = (value as { type?: unknown } | null)?.type;
    if (type === 'thread.started') {
      threadId ??= String((value as { thread_id?: unknown }).thread_id ?? '') || undefined;
      writer.open({ capabilities: codexCapabilities(threadId), tools: catalog, commands: [] });
      continue;
    }
    if (type === 'turn.started') {
      if (writer.inTurn) endTurn();
      writer.startTurn();
      continue;
    }
    translator.handleNow(value);
    if (type === 'turn.completed' || type === 'turn.failed') endTurn();
  }
  if (writer.inTurn) {
    translator.closeNow('ended');
    authCard();
  }
  return { frames: writer.finish(), warnings };
}

registerConverter({ id: 'codex', input: 'codex exec --json stdout (JSON lines; several runs may be appended)', convert: convertCodex });
