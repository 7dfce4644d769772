// Typed input -> action, with the follow-up queue in the path (slash-commands §5 "delivery", §8).
// The pipeline always runs first, at submit time, even while a turn streams: host commands come
// back at once for the host to perform (they are never queued as text), and only the resulting
// prompt goes to the queue, already expanded.
import type { PipelineAction } from './actions';
import type { FollowUpQueue, SubmitOutcome } from './followUpQueue';
import type { PromptExtras, PromptPipeline } from './pipeline';

export interface Routed {
  action: PipelineAction;
  /** For prompts: sent now, or queued behind the running turn (§17.3.2). */
  delivery?: SubmitOutcome;
}

export class PromptRouter {
  constructor(
    private readonly pipeline: PromptPipeline,
    private readonly queue: FollowUpQueue,
  ) {}

  async submit(text: string, extras: PromptExtras = {}): Promise<Routed> {
    const action = await this.pipeline.run(text, extras);
    if (action.kind !== 'prompt') return { action };
    return { action, delivery: this.queue.submit(action.payload) };
  }
}
