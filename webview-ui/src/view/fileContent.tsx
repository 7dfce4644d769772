// A file_content output (§5.3.1): the file's lines with their numbers, in a box that scrolls.
// Mounting is in steps (issue 18): a card first lays out only the lines its box shows and a few
// more (MOUNT_LINES); the rest of its first FIRST_LINES follow in chunks of CHUNK_LINES, one when
// the page is first idle and one each time the reader scrolls the box to the end of what is laid
// out (an IntersectionObserver on a sentinel, no scroll handler). A 50 KB read is ~1,500 lines;
// table rows cost tens of µs each of style and layout every time a card scrolls into the
// transcript's view, which is what made fast scrolling miss frames, and revealing 110 rows at once
// was a stall of its own inside the box (decision 518).
// The chunks not yet laid out are in the DOM all the same, under `hidden="until-found"` (decision
// 481): the browser neither styles nor lays them out, yet find-in-page searches them and, on a
// match, reveals the chunk in place (`beforematch`), so the match it highlights stays where it is.
// Even their nodes are made only once the page is idle (requestIdleCallback), so a card that only
// passes through the view while the transcript scrolls costs what its first lines cost.
import { useMemo, useState } from 'preact/hooks';
import { ChunkedRest, chunksOf, useChunkedReveal } from './chunkedReveal';
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
/** Lines laid out at first: the box shows about 20 (360 px of 17 px lines, under the Open button). */
export const MOUNT_LINES = 24;
/** Lines laid out per step after that: more than the box shows, so one step covers a wheel turn. */
export const CHUNK_LINES = 24;

type OpenAt = ((line: number) => void) | undefined;

function LineRows({ lines, onOpen }: { lines: NumberedLine[]; onOpen: OpenAt }) {
  return (
    <>
      {lines.map((l) => (
        <tr key={l.n}>
          {/* A click on a number opens the file there (a mouse shortcut; decision 392): one button
              per line would be hundreds of Tab stops and 17 px targets. The click and the tooltip
              are the table's (onTableClick / onTableHover), not one handler per line. */}
          <td class={onOpen ? 'line-no line-link' : 'line-no'} data-line={onOpen ? l.n : undefined}>
            {l.n}
          </td>
          {/* The cell is the text's box (white-space: pre-wrap), with no <pre> in it: two layout
              objects a line fewer to make each time a card scrolls into view. */}
          <td class="line-text">{l.text}</td>
        </tr>
      ))}
    </>
  );
}

export function FileContentOutput({ output, path, onOpen }: { output: unknown; path?: string; onOpen?: (line: number) => void }) {
  const lines = useMemo(() => numberLines(asText(output)), [output]);
  const [limit, setLimit] = useState(FIRST_LINES);
  const wanted = Math.min(limit, MAX_LINES);
  const shown = lines.slice(0, wanted);
  const head = shown.slice(0, MOUNT_LINES);
  const reveal = useChunkedReveal(useMemo(() => chunksOf(shown.slice(MOUNT_LINES), CHUNK_LINES), [lines, wanted]));
  const { deferred } = reveal;
  const onTableClick = (e: MouseEvent) => {
    const line = (e.target as Element | null)?.closest?.<HTMLElement>('.line-link')?.dataset.line;
    if (onOpen && line) onOpen(Number(line));
  };
  const onTableHover = (e: MouseEvent) => {
    const link = (e.target as Element | null)?.closest?.<HTMLElement>('.line-link');
    if (link && !link.title) link.title = tr('output.openAtLine', path ?? '', Number(link.dataset.line));
  };
  // All tables share the numbers' width, so the text column lines up across them.
  const digits = String(shown[shown.length - 1]?.n ?? 1).length;
  return (
    <div class="file-content" role="group" aria-label={path ? tr('output.contentsOf', path) : tr('output.fileContents')} style={{ '--line-digits': String(digits) }} onClick={onTableClick} onMouseOver={onTableHover}>
      {onOpen && shown.length > 0 && (
        <button type="button" class="button secondary open-file" onClick={() => onOpen(shown[0].n)}>
          <span class="codicon codicon-go-to-file" aria-hidden="true" /> {tr('output.open', path ?? '')}
        </button>
      )}
      <table class="code-lines">
        <tbody>
          <LineRows lines={head} onOpen={onOpen} />
        </tbody>
      </table>
      <ChunkedRest
        reveal={reveal}
        render={(chunk) => (
          <table class="code-lines">
            <tbody>
              <LineRows lines={chunk} onOpen={onOpen} />
            </tbody>
          </table>
        )}
      />
      {!deferred && lines.length > shown.length && limit < MAX_LINES && (
        <button type="button" class="button secondary show-more" onClick={() => setLimit(MAX_LINES)}>
          {tr('output.showMoreLines', Math.min(lines.length, MAX_LINES) - shown.length)}
        </button>
      )}
      {!deferred && lines.length > shown.length && limit >= MAX_LINES && <div class="clip-note">{tr('output.moreLines', lines.length - shown.length)}</div>}
    </div>
  );
}
