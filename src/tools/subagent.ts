// What Task needs from an agent: a way to run a subagent on a prompt. The runner frames it (§10).
export interface SubagentRequest {
  description: string;
  prompt: string;
  agent_type: string;
  /** Invocation id of the Task call: the subagent's parent_invocation_id. */
  parent_invocation_id: string;
  /** 1 for a subagent of the main agent, 2 for a subagent's subagent, … */
  depth: number;
  allowed_tools?: string[];
  signal: AbortSignal;
}

export interface SubagentResult {
  status: 'completed' | 'failed' | 'cancelled';
  /** The subagent's final answer. */
  result: string;
}

export interface SubagentRunner {
  run(request: SubagentRequest): Promise<SubagentResult>;
}
