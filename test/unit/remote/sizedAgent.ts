// An agent for the history tests: its prompt is a number N and it streams N text deltas of 8 KiB,
// so a test fills the history ring to the byte size it needs.
import type { AgentAdapter, AgentHost, AgentPrompt, TurnOutcome } from '../../../src/session/agentAdapter';

const DELTA = 'y'.repeat(8 * 1024);

export class SizedAgent implements AgentAdapter {
  readonly info = { id: 'sized', displayName: 'Sized agent', adapter_type: 'sdk' as const };
  private host?: AgentHost;
  async start(host: AgentHost) {
    this.host = host;
    return { capabilities: { features: {} }, tools: [], commands: [] };
  }
  async prompt(p: AgentPrompt, signal: AbortSignal): Promise<TurnOutcome> {
    const n = Number(p.text);
    for (let i = 0; i < n && !signal.aborted; i++) {
      this.host?.emit({ type: 'agent.text.delta', payload: { content_index: 0, text: DELTA } });
      if (i % 10 === 9) await new Promise((resolve) => setImmediate(resolve));
    }
    this.host?.emit({ type: 'agent.text.done', payload: { content_index: 0 } });
    return { stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 1 } };
  }
  async dispose(): Promise<void> {}
}
