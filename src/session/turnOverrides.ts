// One turn's `config_overrides` (§6.1.1) beyond the tool lists: `json_schema` (§11), `max_turns`
// and `output_format`, as policy of the session layer for every agent. What an agent can do
// natively (AgentCapabilities.native_overrides) it is asked to do — Claude Code's --json-schema and
// --max-turns, Codex's --output-schema, `response_format` of an OpenAI-compatible server; the rest
// the engine does itself: a schema instruction after the prompt, the answer parsed from the final
// text, the step cap counted in the frames (stepLimit.ts). Either way the engine validates.
import type { AgentEvent, AgentPrompt, NativeOverrides, TurnOutcome } from './agentAdapter';
import { FinalAnswer } from '../protocol/finalAnswer';
import type { Metadata } from '../protocol/envelope';
import type { PayloadOf } from '../protocol/frameTypes';
import { StepLimit } from './stepLimit';
import { describeSchemaIssues } from '../protocol/structuredOutput';
import { judgeStructuredOutput, prepareSchema, schemaInstruction, type CompiledSchema, type SchemaValidator, type StructuredOutput } from './structuredOutput';

type ConfigOverrides = NonNullable<PayloadOf<'control.prompt.request'>['config_overrides']>;

export type PreparedOverrides = { ok: true; overrides: TurnOverrides } | { ok: false; error_code: string; message: string };

export class TurnOverrides {
  private readonly answer = new FinalAnswer();
  /** The engine's own step cap, when the agent has no native one. */
  readonly limit?: StepLimit;

  private constructor(
    private readonly config: ConfigOverrides,
    private readonly native: NativeOverrides,
    private readonly schema?: { schema: Record<string, unknown>; compiled: CompiledSchema },
  ) {
    if (config.max_turns !== undefined && !native.max_turns) this.limit = new StepLimit(config.max_turns);
  }

  static prepare(config: ConfigOverrides | undefined, native: NativeOverrides, validator: SchemaValidator | undefined): PreparedOverrides {
    const c = config ?? {};
    if (!c.json_schema) return { ok: true, overrides: new TurnOverrides(c, native) };
    const prepared = prepareSchema(c.json_schema, validator);
    if (!prepared.ok) return { ok: false, error_code: 'INVALID_JSON_SCHEMA', message: `${prepared.message} (§11); the prompt was not run` };
    return { ok: true, overrides: new TurnOverrides(c, native, prepared) };
  }

  get maxTurns(): number | undefined {
    return this.config.max_turns;
  }

  /** The prompt text as the agent gets it: with the schema instruction when it has no native option. */
  promptText(text: string): string {
    return this.schema && !this.native.json_schema ? text + schemaInstruction(this.schema.schema) : text;
  }

  /** The overrides the adapter passes on natively (only those it announced it can). */
  forAdapter(): Pick<AgentPrompt, 'json_schema' | 'max_turns' | 'output_format'> {
    return {
      ...(this.schema && this.native.json_schema ? { json_schema: this.schema.schema } : {}),
      ...(this.config.max_turns !== undefined && this.native.max_turns ? { max_turns: this.config.max_turns } : {}),
      ...(this.config.output_format ? { output_format: this.config.output_format } : {}),
    };
  }

  /** The turn's allowed_tools: with a schema, the agent's structured-output tool is one of them. */
  allowedTools(requested: string[] | undefined): string[] | undefined {
    const tool = this.native.structured_output_tool;
    if (!requested || !this.schema || !this.native.json_schema || !tool || requested.includes(tool)) return requested;
    return [...requested, tool];
  }

  /** False when the event begins a step beyond max_turns (the engine then stops the turn). */
  admit(event: AgentEvent): boolean {
    return this.limit ? this.limit.admit(event) : true;
  }

  /** Every frame of the turn as it goes out (the final answer is taken from these). */
  observe(type: string, payload: unknown, metadata: Metadata | undefined): void {
    if (this.schema) this.answer.observe({ type, payload, metadata });
  }

  /**
   * When a schema was asked for: the turn.end's §11.1 `structured_output` and, when it is not
   * `valid`, the `agent.error` warning STRUCTURED_OUTPUT_INVALID that says why (decision 320).
   */
  turnEnd(outcome: TurnOutcome | undefined): { structured_output: StructuredOutput; warning?: PayloadOf<'agent.error'> } | undefined {
    if (!this.schema) return undefined;
    const native = outcome?.structured_data ?? undefined;
    const { output, issues } = judgeStructuredOutput(this.schema.compiled, this.schema.schema, { ...(native ? { native } : {}), text: this.answer.text() });
    if (output.validation_status === 'valid') return { structured_output: output };
    return {
      structured_output: output,
      warning: {
        error_code: 'STRUCTURED_OUTPUT_INVALID',
        message: `the answer does not match the requested JSON Schema (${output.validation_status}): ${describeSchemaIssues(issues)}`,
        severity: 'warning',
        recoverable: true,
        details: { validation_status: output.validation_status, issues: issues.slice(0, 20) },
      },
    };
  }
}
