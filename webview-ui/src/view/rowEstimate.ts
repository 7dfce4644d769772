// The virtualizer's first guess at a row's height, per row kind, before the row is measured
// (issue 18). One 72 px guess for every row made a 400 px file card, a 24 px turn end and a long
// answer alike; each measurement then moved everything below and the scrollbar's length with it,
// so scrolling through unmeasured rows kept re-laying out. A guess near the real height keeps the
// correction small. Must be O(1) per row: it runs for every unmeasured row on every render, so it
// reads lengths, never scans the text.
import type { Block, ToolBlock } from '../../../src/protocol/transcript';
import type { Row } from './rows';

const LINE = 20; // body text line (13 px font, line-height 1.5)
const CODE_LINE = 17; // a line of code in an output box
const CHARS_PER_LINE = 55; // the side bar's usual width
const BOX = 360; // .tool-output / .stream-output max-height
const ROW_PAD = 4;

function textHeight(chars: number): number {
  return Math.max(1, Math.ceil(chars / CHARS_PER_LINE)) * LINE;
}

function outputHeight(tool: ToolBlock): number {
  const r = tool.result;
  if (!r) return tool.chunks.length > 0 ? Math.min(BOX, 8 + tool.chunks.length * CODE_LINE) : 0;
  const out = r.output;
  switch (r.outputType) {
    case 'file_content':
      // Numbered lines of about 40 characters, plus the "Open file" button.
      return 32 + Math.min(BOX, 8 + (typeof out === 'string' ? Math.ceil(out.length / 40) : 1) * CODE_LINE);
    case 'diff':
      return Math.min(BOX, 60 + (Array.isArray((out as { hunks?: unknown[] } | null)?.hunks) ? (out as { hunks: unknown[] }).hunks.length * 10 * CODE_LINE : 4 * CODE_LINE));
    case 'empty':
      return 28;
    default:
      return typeof out === 'string' ? Math.min(BOX, 8 + Math.ceil(out.length / 60) * CODE_LINE) : 120;
  }
}

function blockHeight(b: Block): number {
  switch (b.kind) {
    case 'text':
    case 'plan':
      return 8 + textHeight(b.text.length);
    case 'thinking':
      // Closed once done: its summary line only.
      return b.done ? 28 : 28 + Math.min(240, textHeight(b.text.length));
    case 'tool':
      return 36 + outputHeight(b);
    case 'prompt':
      return 18 + textHeight(b.prompt.prompt_text.length);
    default:
      return 72;
  }
}

export function estimateRowSize(row: Row | undefined): number {
  if (!row) return 72;
  switch (row.kind) {
    case 'turn-start':
      return 34;
    case 'turn-end':
      return 26 + (row.turn.checkpoint ? 30 : 0);
    case 'block':
      return ROW_PAD + blockHeight(row.block);
  }
}
