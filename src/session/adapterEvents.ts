// The first gate every frame an adapter emits passes (adapterSide.ts `routeAdapterEvent`): frames only the
// engine may send are refused, a missing output_type is decided (§5.3.3), the payload is checked
// against its schema, and bad metadata is stripped. What comes out is safe to route.
import type { AgentEvent, CatalogTool } from './agentAdapter';
import { Metadata } from '../protocol/envelope';
import { FRAME_TYPES } from '../protocol/frameTypes';
import { describeIssues } from '../protocol/parse';
import { decideOutputType } from '../protocol/outputType';
import { OutputType } from '../protocol/common';
import type { Logger } from './ports';

/** Frame types only the engine itself sends; an adapter emitting one is ignored. */
const ENGINE_OWNED = new Set<string>(['session.turn.start', 'session.turn.end', 'session.capabilities', 'session.history', 'session.deleted', 'session.renamed']);

/**
 * The event ready to route, or undefined when it was dropped (the reason is logged). `warned`: the
 * engine-owned types already logged for this session; each is logged once, not once a frame (an
 * agent repeating one would fill `rawp serve`'s stderr, decision 725).
 */
export function screenAdapterEvent(event: AgentEvent, tools: CatalogTool[], logger: Logger, warned: Set<string> = new Set()): AgentEvent | undefined {
  if (ENGINE_OWNED.has(event.type) || event.type.startsWith('control.')) {
    const type = ENGINE_OWNED.has(event.type) ? event.type : 'control.*';
    if (!warned.has(type)) {
      warned.add(type);
      logger.warn(`adapter emitted ${event.type}, which only the engine sends; dropped (said once a session, later ones are dropped silently)`);
    }
    return undefined;
  }
  if (event.type === 'tool.invoke.result' && !OutputType.safeParse(event.payload.output_type).success) {
    // §5.3.3: an adapter that leaves output_type out (or names none we know) gets the decided one.
    event = { ...event, payload: { ...event.payload, output_type: decideOutputType(event.payload.tool_name, tools) } };
  }
  const check = FRAME_TYPES[event.type].payload.safeParse(event.payload);
  if (!check.success) {
    logger.error(`adapter emitted an invalid ${event.type}; dropped`, { issues: describeIssues(check.error, 'payload') });
    return undefined;
  }
  if (event.metadata !== undefined && !Metadata.safeParse(event.metadata).success) {
    // Bad metadata would make the whole frame invalid on the wire: send the content without it.
    logger.warn(`adapter emitted invalid metadata on ${event.type}; metadata dropped`);
    event = { ...event, metadata: undefined };
  }
  return event;
}
