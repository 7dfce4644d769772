// One renderer per §5.3.1 output_type. Outputs are tool-dependent (`output: Any`), so each
// renderer accepts the shapes real tools send (our tools, Claude Code, Codex) and falls back to
// plain text or JSON — never to HTML from the agent.
import type { TodoItem } from '../../../src/protocol/transcript';
import { extractTodos } from '../../../src/protocol/transcript';
import type { PayloadOf } from '../../../src/protocol/frameTypes';
import { hunkHeader } from '../../../src/protocol/hunkHeader';
import { formatBytes, isSafeUrl, showJson, tail } from '../format';
import { renderMarkdown } from '../markdown';
import { t as tr } from '../i18n';
import { idFor } from '../i18n/codes';
import { TransferFile } from './transferFile';


export const MAX_TEXT = 20_000;
export const MAX_LINES = 2_000;

export function asText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (output === null || output === undefined) return '';
  return showJson(output);
}

export function Clipped({ text, className }: { text: string; className?: string }) {
  const t = tail(text, MAX_TEXT);
  return (
    <div class={className}>
      {t.hidden > 0 && <div class="clip-note">{tr('output.clipped', t.hidden)}</div>}
      <pre class="output-text">{t.text}</pre>
    </div>
  );
}

export function TextOutput({ output }: { output: unknown }) {
  const text = asText(output);
  return text.length === 0 ? <div class="muted">{tr('output.none')}</div> : <Clipped text={text} />;
}

export function EmptyOutput() {
  return (
    <div class="muted empty-output">
      <span class="codicon codicon-check" aria-hidden="true" /> {tr('output.doneNoOutput')}
    </div>
  );
}

/** §8.1 tasks as a checklist (read-only: the agent owns the list). */
export function TodoChecklist({ items, label }: { items: TodoItem[]; label: string }) {
  return (
    <ul class="todo-list" aria-label={label}>
      {items.map((item) => (
        <li key={item.id} class={`todo todo-${item.status}`}>
          <input type="checkbox" checked={item.status === 'completed'} disabled aria-label={tr('output.todoItem', item.content, tr(idFor('todo.', item.status, 'todo.pending')))} />
          <span class="todo-content">{item.content}</span>
          {item.status === 'in_progress' && <span class="badge">{tr('output.inProgress')}</span>}
          {item.status === 'cancelled' && <span class="badge">{tr('output.cancelled')}</span>}
          {item.priority && <span class={`badge priority-${item.priority}`}>{item.priority}</span>}
        </li>
      ))}
    </ul>
  );
}

export function StructuredOutput({ output }: { output: unknown }) {
  const todos = extractTodos('structured', output);
  if (todos) return <TodoChecklist items={todos.items} label={tr('tasks.label')} />;
  return <Clipped text={showJson(output)} className="json" />;
}

export function listPaths(output: unknown): string[] {
  const fromItem = (x: unknown): string | undefined =>
    typeof x === 'string' ? x : typeof x === 'object' && x !== null && typeof (x as { path?: unknown }).path === 'string' ? (x as { path: string }).path : undefined;
  if (Array.isArray(output)) return output.map(fromItem).filter((x): x is string => x !== undefined);
  if (typeof output === 'string') return output.split('\n').map((l) => l.trim()).filter((l) => l.length > 0);
  if (typeof output === 'object' && output !== null) {
    const o = output as Record<string, unknown>;
    for (const key of ['files', 'paths', 'entries', 'filenames']) if (Array.isArray(o[key])) return listPaths(o[key]);
  }
  return [];
}

export function FileListOutput({ output, onOpen }: { output: unknown; onOpen?: (path: string) => void }) {
  const paths = listPaths(output);
  if (paths.length === 0) return <div class="muted">{tr('output.noFiles')}</div>;
  const shown = paths.slice(0, MAX_LINES);
  return (
    <div>
      <div class="muted count">{paths.length === 1 ? tr('output.file1') : tr('output.filesN', paths.length)}</div>
      <ul class="file-list" aria-label={tr('output.files')}>
        {shown.map((p) => (
          <li key={p}>
            <span class="codicon codicon-file" aria-hidden="true" />
            {onOpen && !p.endsWith('/') ? (
              <button type="button" class="link-button" onClick={() => onOpen(p)}>
                {p}
              </button>
            ) : (
              <span>{p}</span>
            )}
          </li>
        ))}
      </ul>
      {paths.length > shown.length && <div class="clip-note">{tr('output.more', paths.length - shown.length)}</div>}
    </div>
  );
}

export interface Hunk {
  header: string;
  oldStart: number;
  newStart: number;
  lines: string[];
}

/** Hunks from our DiffOutput (`hunks`), a `unified_diff` string, or a plain unified diff text. */
export function diffHunks(output: unknown): { file?: string; hunks: Hunk[]; additions: number; deletions: number } {
  let file: string | undefined;
  let hunks: Hunk[] = [];
  if (typeof output === 'object' && output !== null && !Array.isArray(output)) {
    const o = output as Record<string, unknown>;
    if (typeof o.file_path === 'string') file = o.file_path;
    if (Array.isArray(o.hunks)) {
      hunks = o.hunks.flatMap((h) => {
        const x = h as Record<string, unknown>;
        if (!Array.isArray(x.lines)) return [];
        const oldStart = Number(x.old_start ?? x.oldStart ?? 1);
        const newStart = Number(x.new_start ?? x.newStart ?? 1);
        // Git's header (a new file's old side is -0,0), as the unified_diff text of the same output says.
        const header = hunkHeader({ oldStart, oldLines: Number(x.old_lines ?? x.oldLines ?? 0), newStart, newLines: Number(x.new_lines ?? x.newLines ?? 0) });
        return [{ header, oldStart, newStart, lines: x.lines.map(String) }];
      });
    } else {
      for (const key of ['unified_diff', 'diff', 'patch']) if (typeof o[key] === 'string') return { ...parseUnified(o[key] as string), file: file ?? parseUnified(o[key] as string).file };
    }
  } else if (typeof output === 'string') {
    return parseUnified(output);
  }
  let additions = 0;
  let deletions = 0;
  for (const h of hunks) for (const l of h.lines) l.startsWith('+') ? additions++ : l.startsWith('-') ? deletions++ : undefined;
  return { file, hunks, additions, deletions };
}

function parseUnified(text: string): { file?: string; hunks: Hunk[]; additions: number; deletions: number } {
  const hunks: Hunk[] = [];
  let file: string | undefined;
  let current: Hunk | undefined;
  let additions = 0;
  let deletions = 0;
  for (const line of text.split('\n')) {
    const h = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (h) {
      current = { header: line, oldStart: Number(h[1]), newStart: Number(h[2]), lines: [] };
      hunks.push(current);
    } else if (!current && line.startsWith('+++ ')) {
      file = line.slice(4).replace(/^b\//, '');
    } else if (current && line.length > 0) {
      current.lines.push(line);
      if (line.startsWith('+')) additions++;
      else if (line.startsWith('-')) deletions++;
    }
  }
  return { file, hunks, additions, deletions };
}

export function WebContentOutput({ output }: { output: unknown }) {
  if (typeof output === 'object' && output !== null && !Array.isArray(output)) {
    const o = output as Record<string, unknown>;
    const results = Array.isArray(o.results) ? o.results : undefined;
    const url = o.url;
    const title = typeof o.title === 'string' ? o.title : undefined;
    const body = ['content', 'text', 'markdown', 'result'].map((k) => o[k]).find((v) => typeof v === 'string') as string | undefined;
    return (
      <div class="web-content">
        {(title || url) && (
          <div class="web-title">
            <span class="codicon codicon-globe" aria-hidden="true" />{' '}
            {isSafeUrl(url) ? (
              <a href={url} target="_blank" rel="noopener noreferrer">
                {title ?? url}
              </a>
            ) : (
              <span>{title ?? String(url)}</span>
            )}
          </div>
        )}
        {body !== undefined && <div class="markdown web-body" dangerouslySetInnerHTML={{ __html: renderMarkdown(tail(body, MAX_TEXT).text) }} />}
        {results && (
          <ol class="web-results">
            {results.slice(0, 50).map((r, i) => {
              const x = (typeof r === 'object' && r !== null ? r : {}) as Record<string, unknown>;
              const label = typeof x.title === 'string' ? x.title : String(x.url ?? tr('output.result', i + 1));
              return (
                <li key={i}>
                  {isSafeUrl(x.url) ? (
                    <a href={x.url} target="_blank" rel="noopener noreferrer">
                      {label}
                    </a>
                  ) : (
                    <span>{label}</span>
                  )}
                  {typeof x.snippet === 'string' && <div class="muted">{x.snippet}</div>}
                </li>
              );
            })}
          </ol>
        )}
        {body === undefined && !results && !title && !url && <Clipped text={showJson(output)} />}
      </div>
    );
  }
  return <div class="markdown web-body" dangerouslySetInnerHTML={{ __html: renderMarkdown(tail(asText(output), MAX_TEXT).text) }} />;
}

export function BinaryRefOutput({ output, transfer }: { output: unknown; transfer?: PayloadOf<'agent.file.transfer'> }) {
  if (!transfer) {
    return (
      <div class="binary-ref">
        <span class="codicon codicon-file-binary" aria-hidden="true" /> {tr('output.binaryWaiting')}
        {output !== null && output !== undefined && output !== '' && <Clipped text={asText(output)} />}
      </div>
    );
  }
  return (
    <div class="binary-ref" role="group" aria-label={tr('output.file', transfer.file_name)}>
      <span class="codicon codicon-file-media" aria-hidden="true" />{' '}
      <TransferFile transfer={transfer} />{' '}
      <span class="muted">
        {transfer.mime_type} · {formatBytes(transfer.size_bytes)} · {transfer.direction}
      </span>
    </div>
  );
}

/** The final answer of a subagent: `{summary}`, `{result}`, `{status, result}` or text. */
export function AgentResultOutput({ output }: { output: unknown }) {
  let text: string | undefined;
  let status: string | undefined;
  if (typeof output === 'string') text = output;
  else if (typeof output === 'object' && output !== null && !Array.isArray(output)) {
    const o = output as Record<string, unknown>;
    status = typeof o.status === 'string' ? o.status : undefined;
    const v = ['summary', 'result', 'text', 'content'].map((k) => o[k]).find((x) => typeof x === 'string') as string | undefined;
    text = v;
  }
  return (
    <div class="agent-result">
      <div class="agent-result-label">
        <span class="codicon codicon-hubot" aria-hidden="true" /> {status ? tr('output.subagentResultStatus', status) : tr('output.subagentResult')}
      </div>
      {text !== undefined ? <div class="markdown" dangerouslySetInnerHTML={{ __html: renderMarkdown(tail(text, MAX_TEXT).text) }} /> : <Clipped text={showJson(output)} />}
    </div>
  );
}
