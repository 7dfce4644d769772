// A small AgentHost for tests: records every event (and checks it becomes a frame parseFrame
// accepts), answers interactions from a script, and can gate tools like the engine would.
import { strict as assert } from 'node:assert';
import type { AgentEvent, AgentHost, InteractionAnswer } from '../../src/session/agentAdapter';
import { PermissionBroker, type PermissionQuestion, type PermissionVerdict } from '../../src/session/permissions';
import { buildFrame, parseFrame, type AgentModeName, type Metadata, type PayloadOf } from '../../src/protocol';

export type Answerer = (request: PayloadOf<'agent.interaction.request'>) => InteractionAnswer | Promise<InteractionAnswer>;

export class FakeHost implements AgentHost {
  readonly events: AgentEvent[] = [];
  readonly interactions: PayloadOf<'agent.interaction.request'>[] = [];
  mode: AgentModeName = 'default';
  answer: Answerer = () => ({ kind: 'response', selected_value: 'allow_once' });
  checkToolImpl: AgentHost['checkTool'] = () => ({ allowed: true });
  readonly checkToolCalls: { tool_name: string; context?: { parent_invocation_id?: string } }[] = [];
  /** Frames that parseFrame did not accept (should stay empty). */
  readonly rejected: string[] = [];

  constructor(
    readonly workspacePath: string,
    readonly session_id: string = globalThis.crypto.randomUUID(),
    /** The host's one policy and rules store (share one between FakeHosts for several sessions). */
    readonly permissions: PermissionBroker = new PermissionBroker(),
  ) {}

  emit(event: AgentEvent): void {
    this.events.push(event);
    const frame = buildFrame(event.type, event.payload as never, { session_id: this.session_id, turn_id: globalThis.crypto.randomUUID(), metadata: event.metadata });
    const parsed = parseFrame(JSON.stringify(frame));
    if (parsed.kind !== 'accepted') this.rejected.push(`${event.type}: ${JSON.stringify(parsed)}`);
  }

  checkTool(tool_name: string, input: Record<string, unknown>, context?: { parent_invocation_id?: string }) {
    this.checkToolCalls.push({ tool_name, context });
    return this.checkToolImpl(tool_name, input, context);
  }

  async requestInteraction(request: PayloadOf<'agent.interaction.request'>, options?: { metadata?: Metadata }): Promise<InteractionAnswer> {
    this.emit({ type: 'agent.interaction.request', payload: request, ...(options?.metadata ? { metadata: options.metadata } : {}) });
    this.interactions.push(request);
    return this.answer(request);
  }

  get policy() {
    return this.permissions.policy;
  }

  askPermission(question: PermissionQuestion, options?: { metadata?: Metadata }): Promise<PermissionVerdict> {
    return this.permissions.ask(question, { session_id: this.session_id, agent_id: 'test', requestInteraction: (r, o) => this.requestInteraction(r, o), newId: () => globalThis.crypto.randomUUID(), ...(options?.metadata ? { metadata: options.metadata } : {}) });
  }

  types(): string[] {
    return this.events.map((e) => e.type);
  }

  ofType<T extends AgentEvent['type']>(type: T): Extract<AgentEvent, { type: T }>[] {
    return this.events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);
  }

  assertAllFramesAccepted(): void {
    assert.deepEqual(this.rejected, [], 'every emitted frame is accepted by parseFrame');
  }
}
