// A tool call's card (§5): its name, input summary and status, the live output or the result (shown
// once between them, issue 15 Why 7), a subagent run it started, and one renderer per output_type.
import type { ToolBlock } from '../../../src/protocol/transcript';
import { toolOutputPlan } from '../../../src/protocol/transcript';
import { webviewMessage } from '../../../src/protocol/webviewMessages';
import { formatDuration } from '../format';
import { useStore, useStoreVersion } from '../state/useStore';
import { t, type MessageId } from '../i18n';
import { codeSentence, codeTooltip, hasSentence } from '../i18n/codes';
import { workspaceRelative } from '../paths';
import { visibleName } from '../../../src/protocol/visibleName';
import { FileContentOutput } from './fileContent';
import { SubagentView } from './groups';
import { AgentResultOutput, BinaryRefOutput, EmptyOutput, FileListOutput, StructuredOutput, TextOutput, WebContentOutput } from './outputs';
import { DiffOutput } from './diffOutput';
import { StreamOutput } from './streamOutput';
import { SyntheticBadge } from './syntheticBadge';
import { useUnansweredPermission } from './interaction';
import { RuleAllowedNote } from './ruleAllowed';

const TOOL_ICONS: Record<string, string> = {
  Bash: 'terminal',
  Read: 'file',
  Write: 'new-file',
  Edit: 'edit',
  MultiEdit: 'edit',
  Glob: 'search',
  Grep: 'search',
  LS: 'folder',
  WebFetch: 'globe',
  WebSearch: 'globe',
  TodoWrite: 'checklist',
  TodoRead: 'checklist',
  Task: 'hubot',
};

const TOOL_STATUS: Record<string, MessageId> = {
  running: 'tool.status.running',
  success: 'tool.status.success',
  error: 'tool.status.error',
  timeout: 'tool.status.timeout',
  cancelled: 'tool.status.cancelled',
};

export function inputSummary(input: Record<string, unknown>): string {
  for (const key of ['command', 'file_path', 'path', 'pattern', 'url', 'query', 'description', 'prompt']) {
    const v = input[key];
    // Shown, not obeyed: a bidi override in a path or command reorders the card's title (visibleName.ts).
    if (typeof v === 'string' && v.length > 0) return visibleName(v.length > 160 ? `${v.slice(0, 160)}…` : v, key === 'command' || key === 'prompt' || key === 'description');
  }
  return '';
}

export function ToolCard({ tool }: { tool: ToolBlock }) {
  const store = useStore();
  const r = tool.result;
  const status = r ? r.status : 'running';
  // Refused because the file was not read yet: nothing was written and the agent reads and retries,
  // so it is a quiet note, not a red failure (decision 372).
  const held = r?.status === 'error' && r.errorCode === 'FS_NOT_OBSERVED';
  // Not run because the person answered no: their choice, not a failure of the tool, so it reads
  // "Rejected" in the tone of a cancellation rather than a red "Failed".
  const rejected = r?.status === 'error' && r.errorCode === 'PERMISSION_REJECTED';
  // Asked for permission and not answered: its deadline passed here (the host's frames may still be
  // on their way, and another master may still answer), the host timed it out, or the result says
  // so (ours with its code; Claude Code's and ACP agents' as a plain error). Nobody's "no" and no
  // failure of the tool: "Not answered", from the first moment to the replay (decision 656).
  const unanswered = useUnansweredPermission(tool.asking) && (!r || r.errorCode === 'PERMISSION_TIMEOUT' || (r.status === 'error' && r.errorCode === undefined));
  const waiting = !r && !unanswered && tool.asking?.status === 'pending';
  const tone = held ? 'held' : rejected || unanswered ? 'cancelled' : status;
  const statusText = held ? t('tool.status.held') : rejected ? t('tool.status.rejected') : unanswered ? t('tool.status.unanswered') : waiting ? t('tool.status.waiting') : t(TOOL_STATUS[status]);
  const roots = store.workspaceRoots;
  const path = typeof tool.input.file_path === 'string' ? tool.input.file_path : typeof tool.input.path === 'string' ? tool.input.path : undefined;
  const openFile = (p: string, line?: number) => store.transport.send(webviewMessage('file.open', { path: p, ...(line ? { line } : {}) }));
  const summary = workspaceRelative(inputSummary(tool.input), roots);
  // Issue 15 Why 7: the streamed output and the result are shown once between them.
  const shown = toolOutputPlan(tool);
  // Ran unasked by a saved rule (decision 691): the note is read with the card's name.
  const ruleNote = r?.allowedByRule ? `rule-${tool.invocationId}` : undefined;
  return (
    <article class={`block tool-card status-${tone}`} aria-label={t('tool.label', tool.toolName, statusText)} aria-describedby={ruleNote} data-output-type={r?.outputType ?? ''} data-invocation={tool.invocationId}>
      <header class="tool-head">
        <span class={`codicon codicon-${TOOL_ICONS[tool.toolName] ?? 'tools'}`} aria-hidden="true" />
        <span class="tool-name">{tool.toolName}</span>
        {summary && <span class="tool-summary" title={summary}>{summary}</span>}
        <span class={`badge status status-${tone}`} data-code={r?.errorCode ?? status} title={r?.errorCode ? codeTooltip(r.errorCode) : undefined}>
          {status === 'running' && !waiting && !unanswered ? <span class="codicon codicon-loading codicon-modifier-spin" aria-hidden="true" /> : null}
          {statusText}
        </span>
        {/* A call rejected or never answered never ran: it has a wait, no run time (decision 675). */}
        {rejected || unanswered ? <WaitedOnly waitMs={tool.permissionWaitMs} /> : r?.durationMs !== undefined && <ToolDuration ms={r.durationMs} waitMs={tool.permissionWaitMs} />}
        {r?.truncated && <span class="badge">{t('tool.truncated')}</span>}
        <SyntheticBadge show={r?.synthetic === true} />
      </header>
      {r?.allowedByRule && ruleNote && <RuleAllowedNote rule={r.allowedByRule} id={ruleNote} />}
      {r?.status !== 'success' && r?.errorCode && hasSentence(r.errorCode) && (
        <div class={`tool-error-sentence${held ? ' muted' : ''}`} title={codeTooltip(r.errorCode)} data-code={r.errorCode}>
          {codeSentence(r.errorCode)}
        </div>
      )}
      {shown.stream && <StreamOutput tool={tool} />}
      {tool.subagent && <SubagentView run={tool.subagent} />}
      {r && shown.result && (
        <div class="tool-output">
          <ToolOutput tool={tool} path={path} openFile={openFile} />
        </div>
      )}
    </article>
  );
}

/**
 * The tool's own run time (decision 565): the wait for a permission answer is left out, and said
 * in the tooltip and the accessible name. A clock skew between master and client cannot make it negative.
 */
export function ToolDuration({ ms, waitMs }: { ms: number; waitMs?: number }) {
  const wait = waitMs !== undefined ? Math.min(waitMs, ms) : 0;
  const own = formatDuration(ms - wait);
  if (wait <= 0) return <span class="muted duration">{own}</span>;
  const said = t('tool.duration.waited', own, formatDuration(wait));
  return (
    <span class="muted duration" title={said} data-wait-ms={Math.round(wait)}>
      <span aria-hidden="true">{own}</span>
      <span class="sr-only">{said}</span>
    </span>
  );
}

/**
 * A call that never ran (rejected, or its question not answered): its `duration_ms` is the wait for
 * the answer and what surrounds it, no run of the tool, so only the wait is said ("Rejected 99 ms"
 * with "Ran 99 ms" in the tooltip read as if it had run; decision 675). Without a question, no time.
 */
export function WaitedOnly({ waitMs }: { waitMs?: number }) {
  if (waitMs === undefined || waitMs <= 0) return null;
  const wait = formatDuration(waitMs);
  const said = t('tool.duration.waitedOnly', wait);
  return (
    <span class="muted duration" title={said} data-wait-ms={Math.round(waitMs)}>
      <span aria-hidden="true">{t('tool.duration.waitShort', wait)}</span>
      <span class="sr-only">{said}</span>
    </span>
  );
}

/** "FS_NOT_OBSERVED: edit requires reading …" -> "edit requires reading …". */
export function withoutCode(text: string, code: string): string {
  return text.startsWith(`${code}: `) ? text.slice(code.length + 2) : text;
}

function ToolOutput({ tool, path, openFile }: { tool: ToolBlock; path?: string; openFile: (p: string, line?: number) => void }) {
  const store = useStore();
  const r = tool.result!;
  // The tool's own message after the sentence, without the code it starts with (that is in the tooltip).
  if (r.status !== 'success' && (typeof r.output === 'string' || r.output === null)) return <TextOutput output={r.errorCode && typeof r.output === 'string' ? withoutCode(r.output, r.errorCode) : r.output} />;
  switch (r.outputType) {
    case 'text':
      return <TextOutput output={r.output} />;
    case 'structured':
      return <StructuredOutput output={r.output} />;
    case 'file_content':
      return <FileContentOutput output={r.output} path={path} onOpen={path ? (line) => openFile(path, line) : undefined} />;
    case 'file_list':
      return <FileListOutput output={r.output} onOpen={(p) => openFile(p)} />;
    case 'diff':
      return <DiffOutput output={r.output} onOpenDiff={(file) => store.transport.send(webviewMessage('diff.open', { invocation_id: tool.invocationId, ...(file ?? path ? { file_path: file ?? path } : {}) }))} />;
    case 'web_content':
      return <WebContentOutput output={r.output} />;
    case 'empty':
      return <EmptyOutput />;
    case 'binary_ref':
      return <BinaryRef tool={tool} />;
    case 'agent_result':
      return <AgentResultOutput output={r.output} />;
  }
}

/** binary_ref pairs with the agent.file.transfer that names this invocation (§4.5, may come later). */
function BinaryRef({ tool }: { tool: ToolBlock }) {
  const store = useStoreVersion();
  return <BinaryRefOutput output={tool.result?.output} transfer={store.transfersByInvocation.get(tool.invocationId)} />;
}
