// Decision 632, the review of 2026-12-05: the TOOL_RAN_UNASKED warning says the agent's tool name,
// which the agent chooses: a 20,000-character name with a bidi override and a line feed went into
// the message twice, raw (40,203 characters). Now shown as the chat shows names, cut at 200.
import { strict as assert } from 'node:assert';
import { reportUnaskedCall, TOOL_RAN_UNASKED } from '../../../src/agents/acp/unasked';
import type { AgentHost } from '../../../src/session/agentAdapter';
import { AgentError } from '../../../src/protocol/payloads/agent';

describe('acp/unasked: the TOOL_RAN_UNASKED warning with a hostile tool name', () => {
  it('decision 632: a 20,000-character name with U+202E and a line feed is said visibly, cut at 200 characters, in the message and the details; the payload is valid', () => {
    const name = `Read\u202Etxt.exe\n${'x'.repeat(20_000)}`;
    const events: { type: string; payload: Record<string, any> }[] = [];
    const host = { emit: (e: never) => events.push(e), checkTool: (tool: string) => ({ allowed: false, message: `Tool ${tool} is not allowed for this prompt`, code: 'TOOL_DENIED', sessionError: false }) } as unknown as AgentHost;
    reportUnaskedCall(host, 'gemini', { invocation_id: 'c1', tool_name: name, input: {} });
    assert.equal(events.length, 1);
    const p = events[0].payload;
    assert.equal(p.error_code, TOOL_RAN_UNASKED);
    assert.ok(p.message.length < 700, `${p.message.length} characters`);
    assert.doesNotMatch(p.message, /[\u202E\n]/, 'no bidi override or line feed obeyed');
    assert.match(p.message, /Read<U\+202E>txt\.exe␊x+…/);
    assert.ok(p.details.tool_name.length <= 201);
    assert.equal(AgentError.safeParse(p).success, true);
  });
});
