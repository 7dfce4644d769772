// §10.5-1 robustness (decision 631, the review of 2026-12-05): hostile or broken figures in Claude
// Code's subagent lines — negative, fractional, beyond the safe integers, infinite — still give one
// valid subagent usage report, clamped as the main agent's figures are; before, one bad number made
// the whole report invalid and the engine dropped it.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ClaudeTranslator } from '../../../src/agents/claudeCode/translate';
import { SessionUsage } from '../../../src/protocol/payloads/session';

const FIXTURE = join(__dirname, '../../fixtures/native/claude-code/subagent.jsonl');

describe('claude-code subagent usage: §10.5-1 hostile figures are clamped, never drop the report', () => {
  const lines = readFileSync(FIXTURE, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
  const cases: Record<string, Record<string, number>> = {
    negative: { input_tokens: -5000, output_tokens: 10, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
    fractional: { input_tokens: 10.5, output_tokens: 0.25, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
    overflow: { input_tokens: 1e308, output_tokens: 1, cache_read_input_tokens: 1e308, cache_creation_input_tokens: 0 },
    unsafe: { input_tokens: 2 ** 60, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
  };
  for (const [name, bad] of Object.entries(cases)) {
    it(`§10.5-1 ${name} figures: one subagent session.usage whose counts are whole numbers from 0 to the largest safe integer, valid by the schema`, () => {
      const tr = new ClaudeTranslator();
      const events: { type: string; payload: Record<string, any>; metadata?: Record<string, any> }[] = [];
      for (const original of lines) {
        const l = structuredClone(original);
        if (l.type === 'assistant' && l.parent_tool_use_id && l.message?.usage) l.message.usage = { ...l.message.usage, ...bad };
        if (l.type === 'user' && l.tool_use_result?.agentId) l.tool_use_result.usage = { input_tokens: 3, output_tokens: 2, ...(name === 'overflow' ? { input_tokens: 1e308 } : {}) };
        for (const item of tr.translate(l)) if (item.kind === 'event') events.push(item.event as never);
      }
      const reports = events.filter((e) => e.type === 'session.usage' && e.metadata?.subagent_context);
      assert.equal(reports.length, 1);
      const usage = reports[0].payload;
      for (const [k, v] of Object.entries(usage.token_usage as Record<string, number>)) assert.ok(Number.isSafeInteger(v) && v >= 0, `${k} = ${v}`);
      assert.ok(Number.isSafeInteger(usage.context_window?.used ?? 0));
      assert.equal(SessionUsage.safeParse({ ...usage, session_total_cost_usd: 0, prompt_count: 1 }).success, true, JSON.stringify(usage));
    });
  }
});
