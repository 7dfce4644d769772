// What the validator reports: one problem per rule broken, tied to the line of the frame at fault.
import type { ProblemCode, Severity } from './codes';

export interface Problem {
  /** 1-based line of the input the problem belongs to. */
  line: number;
  code: ProblemCode;
  severity: Severity;
  /** The clause the finding breaks (catalogue id, see codes.ts). */
  clause: string;
  message: string;
  session_id?: string;
  message_id?: string;
}

export interface ValidationResult {
  /** Non-blank input lines read. */
  frames: number;
  errors: number;
  warnings: number;
  /** Sorted by line; problems found at the end of the stream carry the line of their cause. */
  problems: Problem[];
}

/** Where a problem points: a line and, when known, the frame's identifiers. */
export interface Where {
  line: number;
  session_id?: string;
  message_id?: string;
}

export type Report = (code: ProblemCode, where: Where, message: string) => void;
