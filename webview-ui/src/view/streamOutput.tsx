// A tool's live output (§5.2 tool.invoke.stream): the newest MAX_TEXT characters in `sequence`
// order, stderr in its own colour. Consecutive chunks of one stream are one span: a 200-chunk Bash
// stream is then a handful of nodes, not 400, to mount when its card scrolls into view (issue 18).
import type { ToolBlock } from '../../../src/protocol/transcript';
import { t } from '../i18n';
import { MAX_TEXT } from './outputs';

interface Run {
  streamType: string;
  text: string;
}

/** The tail of the chunks up to MAX_TEXT characters, as runs of one stream type; and how much is hidden. */
export function streamRuns(chunks: ToolBlock['chunks']): { runs: Run[]; hidden: number } {
  const shown: { streamType: string; chunk: string }[] = [];
  let size = 0;
  let hidden = 0;
  for (let i = chunks.length - 1; i >= 0; i--) {
    const c = chunks[i];
    const room = MAX_TEXT - size;
    if (room <= 0) {
      hidden += c.chunk.length;
    } else if (c.chunk.length > room) {
      shown.push({ streamType: c.streamType, chunk: c.chunk.slice(c.chunk.length - room) });
      hidden += c.chunk.length - room;
      size = MAX_TEXT;
    } else {
      shown.push(c);
      size += c.chunk.length;
    }
  }
  shown.reverse();
  const runs: Run[] = [];
  for (const c of shown) {
    const last = runs[runs.length - 1];
    if (last && last.streamType === c.streamType) last.text += c.chunk;
    else runs.push({ streamType: c.streamType, text: c.chunk });
  }
  return { runs, hidden };
}

export function StreamOutput({ tool }: { tool: ToolBlock }) {
  const { runs, hidden } = streamRuns(tool.chunks);
  return (
    <div class="stream-output" aria-label={t('tool.liveOutput', tool.toolName)}>
      {hidden > 0 && <div class="clip-note">{t('tool.earlierHidden', hidden)}</div>}
      <pre class="output-text">
        {runs.map((r, i) => (
          <span key={i} class={`stream-${r.streamType}`}>
            {r.text}
          </span>
        ))}
      </pre>
    </div>
  );
}
