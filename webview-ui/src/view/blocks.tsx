// Views of the transcript's blocks. Every block view is memoised on (block, rev): the reducer
// mutates blocks in place and bumps `rev`, so a view re-renders only when its block changed.
import { memo } from 'preact/compat';
import { useState } from 'preact/hooks';
import type {
  Block,
  CompactionBlock,
  ErrorBlock,
  FileTransferBlock,
  ParallelGroupBlock,
  PromptBlock,
  SubagentRun,
  TextBlock,
  ThinkingBlock,
  ToolBlock,
} from '../../../src/protocol/transcript';
import { shownAsBlock, toolOutputPlan } from '../../../src/protocol/transcript';
import { decodePrompt } from '../../../src/protocol/fileReference';
import { webviewMessage } from '../../../src/protocol/webviewMessages';
import { formatBytes, formatDuration } from '../format';
import { renderMarkdown } from '../markdown';
import { useStore, useStoreVersion } from '../state/useStore';
import { t, type MessageId } from '../i18n';
import { codeSentence, codeTooltip, hasSentence, idFor } from '../i18n/codes';
import { workspaceRelative } from '../paths';
import { InteractionCard, InteractionControls } from './interaction';
import { AUTH_REQUIRED } from '../../../src/protocol/agentLogin';
import { LoginCard } from './loginCard';
import { TransferFile } from './transferFile';
import {
  AgentResultOutput,
  BinaryRefOutput,
  Clipped,
  DiffOutput,
  EmptyOutput,
  FileContentOutput,
  FileListOutput,
  MAX_TEXT,
  StructuredOutput,
  TextOutput,
  WebContentOutput,
} from './outputs';

export const BlockView = memo(
  function BlockView({ block }: { block: Block; rev: number }) {
    switch (block.kind) {
      case 'text':
        return <TextView block={block} />;
      case 'plan':
        return <PlanView block={block} />;
      case 'thinking':
        return <ThinkingView block={block} />;
      case 'tool':
        return <ToolCard tool={block} />;
      case 'parallel':
        return <ParallelView group={block} />;
      case 'interaction':
        return <InteractionCard block={block} />;
      case 'error':
        return block.error.code === AUTH_REQUIRED ? <LoginCard block={block} /> : <ErrorView block={block} />;
      case 'compaction':
        return <CompactionView block={block} />;
      case 'file_transfer':
        return <FileTransferView block={block} />;
      case 'prompt':
        return <PromptView block={block} />;
    }
  },
  (a, b) => a.block === b.block && a.rev === b.rev,
);

function SyntheticBadge({ show }: { show: boolean }) {
  return show ? (
    <span class="badge synthetic" title={t('block.syntheticTitle')}>
      {t('block.synthetic')}
    </span>
  ) : null;
}

/** Past this size a text block is shown as plain text (its newest part): markdown of megabytes per frame would stall. */
const MAX_MARKDOWN = 200_000;

function TextView({ block }: { block: TextBlock }) {
  return (
    <div class={`block text-block${block.done ? '' : ' streaming'}`} data-depth={block.depth}>
      {block.text.length > MAX_MARKDOWN ? <Clipped text={block.text} /> : <div class="markdown" dangerouslySetInnerHTML={{ __html: renderMarkdown(block.text) }} />}
      {block.cancelled && <span class="badge">{t('block.cancelled')}</span>}
      <SyntheticBadge show={block.finalized} />
    </div>
  );
}

/** §9: a plan document with its one approval control: the question that approves it (§9.2: YN,
 *  or the permission of the plan tool) is rendered here, not as a second card (issue 15 Why 7). */
function PlanView({ block }: { block: TextBlock }) {
  const approval = block.approval;
  return (
    <section class="block plan-block" aria-label={t('block.plan')}>
      <div class="plan-title">
        <span class="codicon codicon-checklist" aria-hidden="true" /> {t('block.plan')}
      </div>
      <div class="markdown" dangerouslySetInnerHTML={{ __html: renderMarkdown(block.text) }} />
      <SyntheticBadge show={block.finalized} />
      {approval && (
        <div class={`plan-approval status-${approval.status}`} role="group" aria-label={t('block.approvePlanLabel', approval.request.question_text)} data-interaction={approval.interactionId}>
          <div class="question">{approval.request.question_text}</div>
          <InteractionControls block={approval} />
        </div>
      )}
    </section>
  );
}

/** §4.2 / §15.3: collapsible; redacted parts are already masked by the reducer and never stored raw. */
function ThinkingView({ block }: { block: ThinkingBlock }) {
  return (
    <details class={`block thinking-block${block.redacted ? ' redacted' : ''}`} open={!block.done}>
      <summary>
        <span class="codicon codicon-lightbulb" aria-hidden="true" /> {block.done ? t('block.thought') : t('block.thinking')}
        {block.redacted && <span class="badge">{t('block.redacted')}</span>}
        <SyntheticBadge show={block.finalized} />
      </summary>
      <div class="thinking-text">{block.text}</div>
    </details>
  );
}

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

function inputSummary(input: Record<string, unknown>): string {
  for (const key of ['command', 'file_path', 'path', 'pattern', 'url', 'query', 'description', 'prompt']) {
    const v = input[key];
    if (typeof v === 'string' && v.length > 0) return v.length > 160 ? `${v.slice(0, 160)}…` : v;
  }
  return '';
}

function StreamOutput({ tool }: { tool: ToolBlock }) {
  // Newest output matters most: keep the tail up to MAX_TEXT characters, in `sequence` order.
  const shown: typeof tool.chunks = [];
  let size = 0;
  let hidden = 0;
  for (let i = tool.chunks.length - 1; i >= 0; i--) {
    const c = tool.chunks[i];
    const room = MAX_TEXT - size;
    if (room <= 0) {
      hidden += c.chunk.length;
    } else if (c.chunk.length > room) {
      shown.push({ ...c, chunk: c.chunk.slice(c.chunk.length - room) });
      hidden += c.chunk.length - room;
      size = MAX_TEXT;
    } else {
      shown.push(c);
      size += c.chunk.length;
    }
  }
  shown.reverse();
  return (
    <div class="stream-output" aria-label={t('tool.liveOutput', tool.toolName)}>
      {hidden > 0 && <div class="clip-note">{t('tool.earlierHidden', hidden)}</div>}
      <pre class="output-text">
        {shown.map((c) => (
          <span key={c.sequence} class={`stream-${c.streamType}`}>
            {c.chunk}
          </span>
        ))}
      </pre>
    </div>
  );
}

export function ToolCard({ tool }: { tool: ToolBlock }) {
  const store = useStore();
  const r = tool.result;
  const status = r ? r.status : 'running';
  // Refused because the file was not read yet: nothing was written and the agent reads and retries,
  // so it is a quiet note, not a red failure (decision 372).
  const held = r?.status === 'error' && r.errorCode === 'FS_NOT_OBSERVED';
  const tone = held ? 'held' : status;
  const statusText = held ? t('tool.status.held') : t(TOOL_STATUS[status]);
  const roots = store.workspaceRoots;
  const path = typeof tool.input.file_path === 'string' ? tool.input.file_path : typeof tool.input.path === 'string' ? tool.input.path : undefined;
  const openFile = (p: string, line?: number) => store.transport.send(webviewMessage('file.open', { path: p, ...(line ? { line } : {}) }));
  const summary = workspaceRelative(inputSummary(tool.input), roots);
  // Issue 15 Why 7: the streamed output and the result are shown once between them.
  const shown = toolOutputPlan(tool);
  return (
    <article class={`block tool-card status-${tone}`} aria-label={t('tool.label', tool.toolName, statusText)} data-output-type={r?.outputType ?? ''} data-invocation={tool.invocationId}>
      <header class="tool-head">
        <span class={`codicon codicon-${TOOL_ICONS[tool.toolName] ?? 'tools'}`} aria-hidden="true" />
        <span class="tool-name">{tool.toolName}</span>
        {summary && <span class="tool-summary" title={summary}>{summary}</span>}
        <span class={`badge status status-${tone}`} data-code={r?.errorCode ?? status} title={r?.errorCode ? codeTooltip(r.errorCode) : undefined}>
          {status === 'running' ? <span class="codicon codicon-loading codicon-modifier-spin" aria-hidden="true" /> : null}
          {statusText}
        </span>
        {r?.durationMs !== undefined && <span class="muted duration">{formatDuration(r.durationMs)}</span>}
        {r?.truncated && <span class="badge">{t('tool.truncated')}</span>}
        <SyntheticBadge show={r?.synthetic === true} />
      </header>
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

/** §5.2.1 / §13.4: calls of one parallel group side by side. */
function ParallelView({ group }: { group: ParallelGroupBlock }) {
  return (
    <div class="block parallel-group" role="group" aria-label={t('block.parallelLabel', group.invocations.length)}>
      <div class="parallel-label muted">
        <span class="codicon codicon-split-horizontal" aria-hidden="true" /> {t('block.parallel', group.invocations.length)}
      </div>
      <div class="parallel-items">
        {group.invocations.map((t) => (
          <ToolCard key={t.key} tool={t} />
        ))}
      </div>
    </div>
  );
}

/** §10: a subagent's own frames, nested under the call that started it, indented by depth. */
function SubagentView({ run }: { run: SubagentRun }) {
  const [open, setOpen] = useState(true);
  return (
    <section class={`subagent depth-${Math.min(run.depth, 6)}`} aria-label={t('block.subagentLabel', run.agentType ?? '', run.depth)}>
      <button type="button" class="subagent-head" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span class={`codicon codicon-chevron-${open ? 'down' : 'right'}`} aria-hidden="true" />
        <span class="codicon codicon-hubot" aria-hidden="true" /> {run.agentType ?? t('block.subagent')}
        {run.description && <span class="muted"> — {run.description}</span>}
        <span class={`badge status-${run.status}`} data-code={run.status}>
          {t(idFor('subagent.', run.status, 'subagent.running'))}
        </span>
        {run.durationMs !== undefined && <span class="muted duration">{formatDuration(run.durationMs)}</span>}
        <SyntheticBadge show={run.synthetic} />
      </button>
      {open && (
        <div class="subagent-body">
          {run.blocks.filter(shownAsBlock).map((b) => (
            <BlockView key={b.key} block={b} rev={b.rev} />
          ))}
        </div>
      )}
    </section>
  );
}

/** §4.4 / §7.4: errors by severity. */
function ErrorView({ block }: { block: ErrorBlock }) {
  const e = block.error;
  const icon = e.severity === 'warning' ? 'warning' : 'error';
  const known = hasSentence(e.code);
  return (
    <div class={`block error-block severity-${e.severity}`} role={e.severity === 'warning' ? 'status' : 'alert'}>
      <span class={`codicon codicon-${icon}`} aria-hidden="true" />
      <span class="badge" data-code={e.severity}>
        {t(idFor('severity.', e.severity, 'severity.error'))}
      </span>
      {/* Issue 15 Why 6: a sentence for the code; the code itself in the tooltip (and the logs). */}
      <span class="error-sentence" title={codeTooltip(e.code)} data-code={e.code}>
        {known ? codeSentence(e.code) : e.message || codeSentence(e.code)}
      </span>
      {known && e.message && <span class="muted error-message"> {e.message}</span>}
      {e.recoverable === false && <span class="badge">{t('block.notRecoverable')}</span>}
      {e.details?.trace && (
        <details>
          <summary>{t('block.trace')}</summary>
          <Clipped text={e.details.trace} />
        </details>
      )}
    </div>
  );
}

function CompactionView({ block }: { block: CompactionBlock }) {
  const c = block.compaction;
  return (
    <div class="block compaction-block" role="note">
      <span class="codicon codicon-fold" aria-hidden="true" /> {t('block.compacted', t(idFor('compaction.', c.trigger, 'compaction.manual')), c.previous_token_count, c.current_token_count)}
      <details>
        <summary>{t('block.summary')}</summary>
        <div class="markdown" dangerouslySetInnerHTML={{ __html: renderMarkdown(c.summary) }} />
      </details>
    </div>
  );
}

function FileTransferView({ block }: { block: FileTransferBlock }) {
  const f = block.transfer;
  return (
    <div class="block file-transfer" role="group" aria-label={t('block.fileTransfer', f.file_name)}>
      <span class={`codicon codicon-cloud-${f.direction === 'upload' ? 'upload' : 'download'}`} aria-hidden="true" />{' '}
      <TransferFile transfer={f} />{' '}
      <span class="muted">
        {f.mime_type} · {formatBytes(f.size_bytes)}
      </span>
    </div>
  );
}

/** The user's prompt (ours or another master's, §2.4), with file tokens shown as chips that open
 *  their file (a button: click, Enter or Space; issue 15 Why 8). */
function PromptView({ block }: { block: PromptBlock }) {
  const store = useStore();
  const decoded = decodePrompt(block.prompt.prompt_text, block.prompt.file_references);
  return (
    <div class="block prompt-block" aria-label={t('block.yourPrompt')}>
      <span class="codicon codicon-account" aria-hidden="true" />
      <div class="prompt-text">
        {decoded.segments.map((s, i) => {
          if (s.kind === 'text') return <span key={i}>{s.text}</span>;
          const path = s.reference.workspace_relative_path;
          const folder = path.endsWith('/');
          return (
            <button key={i} type="button" class="chip" title={path} onClick={() => store.transport.send(webviewMessage('file.open', { path }))}>
              <span class={`codicon codicon-${folder ? 'folder' : 'file'}`} aria-hidden="true" />
              {s.display_path}
            </button>
          );
        })}
        {(block.prompt.context_files?.length ?? 0) > 0 && (
          // §6.1.1: what rode on the prompt, by name (decision 316).
          <ul class="attachments prompt-attachments" aria-label={t('attach.list')}>
            {block.prompt.context_files!.map((f, i) => (
              <li key={i} class="attachment" title={f.mime_type ? `${f.file_name} (${f.mime_type})` : f.file_name}>
                <span class={`codicon codicon-${f.mime_type?.startsWith('image/') ? 'file-media' : 'file'}`} aria-hidden="true" />
                <span class="attachment-name">{f.file_name}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
