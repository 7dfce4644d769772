// A session for hub tests with no engine behind it: it announces what it is given, stays idle, and
// each test says what its handle() does with a frame.
import type { Frame, PayloadOf } from '../../src/protocol/frameTypes';
import type { HubSessionSource } from '../../src/session/hub';

type Announced = Pick<PayloadOf<'session.capabilities'>, 'features'>;

export abstract class StubSessionSource implements HubSessionSource {
  constructor(
    readonly session_id: string,
    private readonly announced: Announced = {},
    private readonly tools: PayloadOf<'tool.catalog.publish'>['tools'] = [],
  ) {}
  capabilities(): PayloadOf<'session.capabilities'> {
    return { protocol_version: 'rawp-dps-1.0', supported_namespaces: ['agent', 'tool', 'session', 'control'], ...this.announced };
  }
  catalog(): PayloadOf<'tool.catalog.publish'> {
    return { tools: this.tools };
  }
  commands(): PayloadOf<'agent.commands.publish'> {
    return { commands: [] };
  }
  agentState(): string {
    return 'idle';
  }
  abstract handle(frame: Frame, from: { connection_id: string }): void;
}
