// A remote master for the extension-host suites: shares a session of the window, connects over its
// WebSocket with the token (§2.4), sends prompts, answers permission prompts, collects frames.
import WebSocket from 'ws';
import { buildFrame, type Frame, type PayloadOf } from '../../../src/protocol';
import type { Services } from '../../../src/extension/services';
import { EVERY_FEATURE } from '../../../src/protocol/capabilities';
import { DPS_SUBPROTOCOL } from '../../../src/remote/controlPlane';

export class TestMaster {
  readonly frames: Frame[] = [];
  private waiters: (() => void)[] = [];

  private constructor(
    private readonly ws: WebSocket,
    readonly session_id: string,
  ) {
    ws.on('message', (d) => {
      this.frames.push(JSON.parse(String(d)) as Frame);
      for (const w of this.waiters.splice(0)) w();
    });
  }

  static async connect(s: Services, session_id: string): Promise<TestMaster> {
    const url = new URL(await s.sharing.share(session_id));
    const token = new URLSearchParams(url.hash.slice(1)).get('token')!;
    const ws = new WebSocket(`ws://${url.host}/v1/sessions/${session_id}/stream`, ['rawp-dps-1.0'], { headers: { Authorization: `Bearer ${token}` } });
    const m = new TestMaster(ws, session_id);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    // §13.1: the master's half of the capabilities exchange first; it prompts once the opening is
    // done (a prompt before it is refused, decision 596).
    ws.send(JSON.stringify(buildFrame('session.capabilities', { protocol_version: DPS_SUBPROTOCOL, supported_namespaces: ['agent', 'tool', 'session', 'control'], features: EVERY_FEATURE }, { session_id })));
    await m.until(() => m.frames.some((f) => f.type === 'agent.state.changed'), 'the opening');
    return m;
  }

  send<T extends 'control.prompt.request' | 'control.interaction.response'>(type: T, payload: PayloadOf<T>): void {
    this.ws.send(JSON.stringify(buildFrame(type, payload, { session_id: this.session_id })));
  }

  /** Waits (bounded) until `pred` holds over the frames. */
  async until<T>(pred: () => T | undefined | false, what: string, ms = 30_000): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const v = pred();
      if (v) return v;
      if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}; last frames: ${this.frames.slice(-6).map((f) => f.type).join(', ')}`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 200);
      });
    }
  }

  /**
   * One prompt as one turn: permission prompts are allowed once; resolves with the turn's tool
   * results and its last text once `session.turn.end` arrives.
   */
  async turn(prompt_text: string): Promise<{ results: Extract<Frame, { type: 'tool.invoke.result' }>['payload'][]; text: string }> {
    const from = this.frames.length;
    const answered = new Set<string>();
    this.send('control.prompt.request', { prompt_text });
    await this.until(() => {
      for (const f of this.frames.slice(from)) {
        if (f.type === 'agent.interaction.request' && f.payload.interaction_type === 'PERMISSION' && !answered.has(f.payload.interaction_id)) {
          answered.add(f.payload.interaction_id);
          this.send('control.interaction.response', { interaction_id: f.payload.interaction_id, selected_value: 'allow_once' });
        }
      }
      return this.frames.slice(from).some((f) => f.type === 'session.turn.end');
    }, `the turn "${prompt_text}" ends`);
    const mine = this.frames.slice(from);
    const results = mine.flatMap((f) => (f.type === 'tool.invoke.result' ? [f.payload] : []));
    const texts = mine.flatMap((f) => (f.type === 'agent.text.done' ? [f.payload.full_text ?? ''] : []));
    return { results, text: texts.join('\n') };
  }

  close(): void {
    this.ws.close();
  }
}
