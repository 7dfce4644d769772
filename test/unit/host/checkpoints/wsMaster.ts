// A master on a real WebSocket (the checkpoint tests against a real `rawp serve` or HostSharing):
// attaches, keeps every accepted frame, answers permission asks on request.
import WebSocket from 'ws';
import { buildFrame } from '../../../../src/protocol/build';
import { EVERY_FEATURE } from '../../../../src/protocol/capabilities';
import { checkpointPayloadOf, CHECKPOINT_CREATED_TYPE, CHECKPOINT_RESTORED_TYPE } from '../../../../src/protocol/checkpointFrames';
import type { WireFrame } from '../../../../src/protocol/frameTypes';
import { parseFrame } from '../../../../src/protocol/parse';
import { waitFor } from '../../remote/harness';

export class WsMaster {
  readonly frames: WireFrame[] = [];
  private ws!: WebSocket;
  constructor(
    private readonly url: string,
    private readonly token: string,
    readonly session_id: string,
  ) {}
  async open(): Promise<this> {
    this.ws = new WebSocket(`${this.url.replace(/^http/, 'ws')}/v1/sessions/${this.session_id}/stream`, ['rawp-dps-1.0', `bearer.${this.token}`]);
    this.ws.on('message', (d) => {
      const o = parseFrame(d.toString());
      if (o.kind === 'accepted') this.frames.push(o.frame);
    });
    await new Promise<void>((res, rej) => {
      this.ws.once('open', () => res());
      this.ws.once('error', rej);
    });
    this.sendRaw(buildFrame('session.capabilities', { protocol_version: 'rawp-dps-1.0', supported_namespaces: ['agent', 'tool', 'session', 'control'], features: EVERY_FEATURE }, { session_id: this.session_id }));
    await waitFor(() => this.frames.some((f) => f.type === 'agent.state.changed'), 'attached');
    return this;
  }
  sendRaw(frame: unknown): void {
    this.ws.send(JSON.stringify(frame));
  }
  /** Answers permission asks with allow_once, as the person at this master would. */
  allowAsks(): void {
    this.ws.on('message', (d) => {
      const o = parseFrame(d.toString());
      if (o.kind === 'accepted' && o.frame.type === 'agent.interaction.request') {
        this.sendRaw(buildFrame('control.interaction.response', { interaction_id: o.frame.payload.interaction_id, selected_value: 'allow_once' }, { session_id: this.session_id }));
      }
    });
  }
  turnEnds(): number {
    return this.frames.filter((f) => f.type === 'session.turn.end').length;
  }
  created() {
    return this.frames.flatMap((f) => checkpointPayloadOf(CHECKPOINT_CREATED_TYPE, f) ?? []);
  }
  restored() {
    return this.frames.flatMap((f) => checkpointPayloadOf(CHECKPOINT_RESTORED_TYPE, f) ?? []);
  }
  close(): void {
    this.ws.close();
  }
}
