// A file_content output (§5.3.1): the file's lines with their numbers, in a box that scrolls.
// Mounting is in two steps (issue 18): a card first mounts only the lines its box shows and a
// screenful more (MOUNT_LINES); the rest of its first FIRST_LINES mount when the reader scrolls the
// box to the end of what is mounted (an IntersectionObserver on a sentinel row, no scroll handler).
// A 50 KB read is ~1,500 lines; 150 table rows per card cost tens of ms of DOM and table layout each
// time a card scrolls into the transcript's view, which is what made fast scrolling miss frames.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { t as tr } from '../i18n';
import { asText, MAX_LINES } from './outputs';

interface NumberedLine {
  n: number;
  text: string;
}

/** `cat -n` style (`   12\tcode` or Claude's `   12→code`) keeps its numbers; otherwise count from 1. */
export function numberLines(text: string): NumberedLine[] {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const numbered = /^\s*(\d+)[\t→](.*)$/;
  const matching = lines.filter((l) => numbered.test(l)).length;
  if (lines.length > 0 && matching >= lines.length * 0.8) {
    return lines.map((l, i) => {
      const m = numbered.exec(l);
      return m ? { n: Number(m[1]), text: m[2] } : { n: i + 1, text: l };
    });
  }
  return lines.map((l, i) => ({ n: i + 1, text: l }));
}

/** Lines a card shows before "Show more lines": its box shows about 20 and scrolls through these. */
export const FIRST_LINES = 150;
/** Lines mounted at first: the box's 20 and a screenful more, so the first scroll inside needs nothing new. */
export const MOUNT_LINES = 40;

export function FileContentOutput({ output, path, onOpen }: { output: unknown; path?: string; onOpen?: (line: number) => void }) {
  const lines = useMemo(() => numberLines(asText(output)), [output]);
  const [limit, setLimit] = useState(FIRST_LINES);
  const [mountedAll, setMountedAll] = useState(false);
  const sentinel = useRef<HTMLTableRowElement>(null);
  const wanted = Math.min(limit, MAX_LINES);
  const deferred = !mountedAll && lines.length > MOUNT_LINES && wanted > MOUNT_LINES;
  const shown = lines.slice(0, deferred ? MOUNT_LINES : wanted);
  useEffect(() => {
    const el = sentinel.current;
    if (!deferred || !el) return;
    // The box clips its lines, so the sentinel intersects the viewport only once scrolled into view.
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setMountedAll(true);
    });
    io.observe(el);
    return () => io.disconnect();
  }, [deferred]);
  return (
    <div class="file-content" role="group" aria-label={path ? tr('output.contentsOf', path) : tr('output.fileContents')}>
      {onOpen && shown.length > 0 && (
        <button type="button" class="button secondary open-file" onClick={() => onOpen(shown[0].n)}>
          <span class="codicon codicon-go-to-file" aria-hidden="true" /> {tr('output.open', path ?? '')}
        </button>
      )}
      <table class="code-lines">
        <tbody>
          {shown.map((l) => (
            <tr key={l.n}>
              <td class="line-no">
                {/* A click on a number opens the file there (a mouse shortcut; decision 392): one
                    button per line would be hundreds of Tab stops and 17 px targets. */}
                {onOpen ? (
                  <span class="line-link" title={tr('output.openAtLine', path ?? '', l.n)} onClick={() => onOpen(l.n)}>
                    {l.n}
                  </span>
                ) : (
                  l.n
                )}
              </td>
              <td class="line-text">
                <pre>{l.text}</pre>
              </td>
            </tr>
          ))}
          {deferred && (
            <tr ref={sentinel} class="lines-pending" aria-hidden="true">
              <td colSpan={2} />
            </tr>
          )}
        </tbody>
      </table>
      {!deferred && lines.length > shown.length && limit < MAX_LINES && (
        <button type="button" class="button secondary show-more" onClick={() => setLimit(MAX_LINES)}>
          {tr('output.showMoreLines', Math.min(lines.length, MAX_LINES) - shown.length)}
        </button>
      )}
      {!deferred && lines.length > shown.length && limit >= MAX_LINES && <div class="clip-note">{tr('output.moreLines', lines.length - shown.length)}</div>}
    </div>
  );
}
