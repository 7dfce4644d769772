// Appendix B as one map: every frame type of RAWP-DPS 1.0 -> its payload schema, direction and
// section. This map is the single source of the frame union, the validators and the docs.
import { z } from 'zod';
import * as A from './payloads/agent';
import * as C from './payloads/control';
import * as S from './payloads/session';
import * as T from './payloads/tool';
import type { Envelope, EnvelopeFields } from './envelope';

/** C2M: client (agent side) -> master; M2C: master -> client; BOTH: either way. */
export type Direction = 'C2M' | 'M2C' | 'BOTH';

function def<P extends z.ZodType>(payload: P, direction: Direction, section: string) {
  return { payload, direction, section } as const;
}

export const FRAME_TYPES = {
  'agent.text.delta': def(A.AgentTextDelta, 'C2M', '4.1.1'),
  'agent.text.done': def(A.AgentTextDone, 'C2M', '4.1.2'),
  'agent.thinking.delta': def(A.AgentThinkingDelta, 'C2M', '4.2.1'),
  'agent.thinking.done': def(A.AgentThinkingDone, 'C2M', '4.2.2'),
  'agent.interaction.request': def(A.AgentInteractionRequest, 'C2M', '4.3.1'),
  'agent.error': def(A.AgentError, 'C2M', '4.4.1'),
  'agent.file.transfer': def(A.AgentFileTransfer, 'BOTH', '4.5.1'),
  'agent.state.changed': def(A.AgentStateChanged, 'C2M', '4.6.1'),
  'agent.commands.publish': def(A.AgentCommandsPublish, 'C2M', '12.1.1'),
  'agent.subagent.started': def(A.AgentSubagentStarted, 'C2M', '10.3.1'),
  'agent.subagent.ended': def(A.AgentSubagentEnded, 'C2M', '10.3.2'),
  'tool.invoke.request': def(T.ToolInvokeRequest, 'C2M', '5.2.1'),
  'tool.invoke.result': def(T.ToolInvokeResult, 'C2M', '5.3.1'),
  'tool.invoke.stream': def(T.ToolInvokeStream, 'C2M', '5.3.2'),
  'tool.catalog.publish': def(T.ToolCatalogPublish, 'C2M', '5.4.1'),
  'control.prompt.request': def(C.ControlPromptRequest, 'M2C', '6.1.1'),
  'control.prompt.cancel': def(C.ControlPromptCancel, 'M2C', '6.1.2'),
  'control.interaction.response': def(C.ControlInteractionResponse, 'M2C', '6.2.1'),
  'control.interaction.timeout': def(C.ControlInteractionTimeout, 'M2C', '6.2.2'),
  'control.session.compact': def(C.ControlSessionCompact, 'M2C', '6.3.1'),
  'control.mode.switch': def(C.ControlModeSwitch, 'M2C', '6.3.2'),
  'control.file.search': def(C.ControlFileSearch, 'M2C', '16.1.1'),
  'control.file.search.cancel': def(C.ControlFileSearchCancel, 'M2C', '16.1.3'),
  'session.history': def(S.SessionHistory, 'C2M', '7.1.1'),
  'session.compacted': def(S.SessionCompacted, 'C2M', '7.2.1'),
  'session.usage': def(S.SessionUsage, 'BOTH', '7.3.1'),
  'session.error': def(S.SessionError, 'BOTH', '7.4.1'),
  'session.turn.start': def(S.SessionTurnStart, 'C2M', '7.5.1'),
  'session.turn.end': def(S.SessionTurnEnd, 'C2M', '7.5.2'),
  'session.capabilities': def(S.SessionCapabilities, 'BOTH', '12.2.1'),
  'session.file.candidates': def(S.SessionFileCandidates, 'C2M', '16.1.2'),
  'session.renamed': def(S.SessionRenamed, 'BOTH', '7.6.1'),
  'session.deleted': def(S.SessionDeleted, 'BOTH', '7.7.1'),
} as const;

type FrameDefs = typeof FRAME_TYPES;
export type FrameType = keyof FrameDefs;
export const FRAME_TYPE_NAMES = Object.keys(FRAME_TYPES) as FrameType[];

/** The payload type of one frame type, inferred from its schema (never written by hand). */
export type PayloadOf<T extends FrameType> = z.infer<FrameDefs[T]['payload']>;

/** A validated frame of one known type. */
export type FrameOf<T extends FrameType> = Omit<EnvelopeFields, 'type' | 'payload'> & { type: T; payload: PayloadOf<T> };

/** Any known frame: a discriminated union over `type`. */
export type Frame = { [T in FrameType]: FrameOf<T> }[FrameType];

/** A vendor frame (§3.1.1): accepted and relayed, its payload opaque. */
export type VendorFrame = EnvelopeFields & Envelope & { type: `x-${string}` };

/** Anything that travels as a frame: a known frame or a relayed vendor frame (what parseFrame accepts). */
export type WireFrame = Frame | VendorFrame;

/** A known frame, not a vendor one. */
export function isKnownFrame(frame: WireFrame): frame is Frame {
  return isFrameType(frame.type);
}

export function isFrameType(type: string): type is FrameType {
  return Object.prototype.hasOwnProperty.call(FRAME_TYPES, type);
}

export function isVendorType(type: string): boolean {
  return /^x-[A-Za-z0-9_-]+\./.test(type);
}

export function isControlType(type: string): boolean {
  return type.startsWith('control.');
}

/** The frames of a turn's content: they exist only inside a turn (§7, §13.2). */
export const TURN_CONTENT_TYPES: ReadonlySet<string> = new Set<FrameType>([
  'agent.text.delta',
  'agent.text.done',
  'agent.thinking.delta',
  'agent.thinking.done',
  'agent.interaction.request',
  'agent.subagent.started',
  'agent.subagent.ended',
  'tool.invoke.request',
  'tool.invoke.stream',
  'tool.invoke.result',
]);
