// A diff output (§5.3.1): its hunks as tables of numbered lines. A diff's rows are laid out as a
// file card's are (decision 518, chunkedReveal.tsx): the first DIFF_MOUNT_ROWS when the card mounts,
// then chunks of DIFF_CHUNK_ROWS when the page is idle and as the box is scrolled, the rest waiting
// under hidden="until-found" for find-in-page. A created file of 1,500 lines is a diff of 1,500
// rows, and laying them all out each time the card scrolled into view stalled the transcript.
// A chunk may begin inside a hunk: the hunk goes on in a table of its own without its header, and
// the tables' fixed columns keep the text in one place.
import { useMemo } from 'preact/hooks';
import { t as tr } from '../i18n';
import { ChunkedRest, chunksOf, useChunkedReveal } from './chunkedReveal';
import { Clipped, MAX_LINES, asText, diffHunks } from './outputs';

/** Rows (hunk headers included) laid out when the card mounts: more than its box shows. */
export const DIFF_MOUNT_ROWS = 24;
/** Rows laid out per step after that. */
export const DIFF_CHUNK_ROWS = 24;

interface DiffRow {
  hunk: number;
  kind: 'header' | 'add' | 'del' | 'ctx' | 'note';
  oldNo: number | '';
  newNo: number | '';
  text: string;
  /** The hunk's last row: its table ends here. */
  last: boolean;
}

function diffRows(hunks: ReturnType<typeof diffHunks>['hunks']): DiffRow[] {
  const rows: DiffRow[] = [];
  hunks.forEach((h, hunk) => {
    let o = h.oldStart;
    let n = h.newStart;
    const lines = h.lines.slice(0, MAX_LINES);
    rows.push({ hunk, kind: 'header', oldNo: '', newNo: '', text: h.header, last: lines.length === 0 });
    lines.forEach((l, j) => {
      const kind = l.startsWith('+') ? 'add' : l.startsWith('-') ? 'del' : l.startsWith('\\') ? 'note' : 'ctx';
      rows.push({ hunk, kind, oldNo: kind === 'add' || kind === 'note' ? '' : o++, newNo: kind === 'del' || kind === 'note' ? '' : n++, text: l, last: j === lines.length - 1 });
    });
  });
  return rows;
}

/** Consecutive rows as one table per hunk part; `at` is the first row's index (the tables' keys). */
function HunkTables({ rows, at, headers }: { rows: DiffRow[]; at: number; headers: string[] }) {
  const parts: { start: number; end: number }[] = [];
  for (let i = 0; i < rows.length; i++) {
    if (i === 0 || rows[i].hunk !== rows[i - 1].hunk) parts.push({ start: i, end: i + 1 });
    else parts[parts.length - 1].end = i + 1;
  }
  return (
    <>
      {parts.map(({ start, end }) => {
        const first = rows[start];
        const body = first.kind === 'header' ? rows.slice(start + 1, end) : rows.slice(start, end);
        return (
          <table class={rows[end - 1].last ? 'hunk' : 'hunk hunk-open'} key={at + start} aria-label={tr('output.hunk', first.hunk + 1, headers[first.hunk])}>
            <colgroup>
              <col class="line-no-col" />
              <col class="line-no-col" />
              <col />
            </colgroup>
            {first.kind === 'header' && (
              <thead>
                <tr>
                  <th colSpan={3} class="hunk-header">
                    {first.text}
                  </th>
                </tr>
              </thead>
            )}
            <tbody>
              {body.map((r, j) => (
                <tr key={j} class={`diff-line ${r.kind}`}>
                  <td class="line-no">{r.oldNo}</td>
                  <td class="line-no">{r.newNo}</td>
                  <td class="line-text">{r.text}</td>
                </tr>
              ))}
            </tbody>
          </table>
        );
      })}
    </>
  );
}

export function DiffOutput({ output, onOpenDiff }: { output: unknown; onOpenDiff?: (file?: string) => void }) {
  const d = useMemo(() => diffHunks(output), [output]);
  const rows = useMemo(() => diffRows(d.hunks), [d]);
  const headers = useMemo(() => d.hunks.map((h) => h.header), [d]);
  const reveal = useChunkedReveal(useMemo(() => chunksOf(rows.slice(DIFF_MOUNT_ROWS), DIFF_CHUNK_ROWS), [rows]));
  // The hunks' tables have a fixed layout, their number columns as wide as the largest number's
  // digits (colgroup: the first row is the header across all three columns), so the browser need
  // not measure every cell first, and every hunk's text starts at one place.
  const digits = String(Math.max(1, ...d.hunks.map((h) => Math.max(h.oldStart, h.newStart) + h.lines.length))).length;
  return (
    <div class="diff" style={{ '--line-digits': String(digits) }}>
      <div class="diff-head">
        <span class="diff-file">{d.file ?? tr('output.changes')}</span>
        <span class="diff-stat add">+{d.additions}</span>
        <span class="diff-stat del">−{d.deletions}</span>
        {onOpenDiff && (
          <button type="button" class="button secondary" onClick={() => onOpenDiff(d.file)}>
            <span class="codicon codicon-diff" aria-hidden="true" /> {tr('output.openDiff')}
          </button>
        )}
      </div>
      {d.hunks.length === 0 && <Clipped text={asText(output)} />}
      <HunkTables rows={rows.slice(0, DIFF_MOUNT_ROWS)} at={0} headers={headers} />
      <ChunkedRest reveal={reveal} render={(chunk, k) => <HunkTables rows={chunk} at={DIFF_MOUNT_ROWS + k * DIFF_CHUNK_ROWS} headers={headers} />} />
    </div>
  );
}
