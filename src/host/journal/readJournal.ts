// Reading one session journal back after a restart. Built for files a crash left behind: a last
// line without its newline (the process died mid-write) is torn and skipped; a bad line in the
// middle is reported and skipped, and everything else still comes back. Never throws on content.
import { readFileSync } from 'node:fs';
import type { WireFrame } from '../../session/connection';
import type { HistoryRecord } from '../../session/history';
import { decodeHeader, decodeRecord, type JournalHeader } from './format';

/** One record line of the file: its size with the newline, and whether it is an alias record. */
export interface JournalLine {
  bytes: number;
  alias: boolean;
}

export interface JournalContents {
  /** Undefined when the first line is missing or unreadable. */
  header?: JournalHeader;
  records: HistoryRecord<WireFrame>[];
  /** Every complete record line (header excluded), in order. */
  lines: JournalLine[];
  /** Bytes up to and including the last newline: where appending goes on (a torn tail is cut). */
  goodBytes: number;
  /** The bytes after the last newline: a record the crash cut short (0 when none). */
  tornBytes: number;
  /** Complete lines that did not decode: 1-based line number and why. */
  corrupt: { line: number; reason: string }[];
}

const NEWLINE = 0x0a;

/** `fallbackId`: whose frames to expect when the header is unreadable (the index's word). */
export function readJournalFile(file: string, fallbackId: string): JournalContents {
  return parseJournal(readFileSync(file), fallbackId);
}

export function parseJournal(bytes: Buffer, fallbackId: string): JournalContents {
  let session_id = fallbackId;
  const out: JournalContents = { records: [], lines: [], goodBytes: 0, tornBytes: 0, corrupt: [] };
  let start = 0;
  let lineNo = 0;
  let lastFrameSeq = -1;
  while (start < bytes.length) {
    const end = bytes.indexOf(NEWLINE, start);
    if (end === -1) {
      // No newline after it: the write that would have ended it never finished (docs/decisions/121).
      out.tornBytes = bytes.length - start;
      break;
    }
    lineNo++;
    const text = bytes.toString('utf8', start, end);
    const size = end + 1 - start;
    start = end + 1;
    out.goodBytes = start;
    if (lineNo === 1) {
      out.header = decodeHeader(text);
      if (out.header === undefined) out.corrupt.push({ line: 1, reason: 'unreadable journal header' });
      else session_id = out.header.session.session_id;
      continue;
    }
    const line: JournalLine = { bytes: size, alias: false };
    out.lines.push(line);
    if (text.trim() === '') continue;
    const d = decodeRecord(text, session_id);
    if (d.ok && 'alias' in d.record) line.alias = true;
    if (!d.ok) {
      out.corrupt.push({ line: lineNo, reason: d.reason });
      continue;
    }
    if ('frame' in d.record) {
      if (d.record.seq <= lastFrameSeq) {
        out.corrupt.push({ line: lineNo, reason: `position ${d.record.seq} does not follow ${lastFrameSeq}` });
        continue;
      }
      lastFrameSeq = d.record.seq;
    }
    out.records.push(d.record);
  }
  return out;
}
