// §12.2.1 capability negotiation: which frames one side may send to a peer, given the features
// that peer announced. A feature that was not announced counts as false (§12.2.1, §14.2.3).
import type { z } from 'zod';
import type { Features } from './payloads/session';
import type { FrameType } from './frameTypes';

export type FeatureSet = z.infer<typeof Features>;
export type FeatureName = Exclude<keyof FeatureSet, 'adapter_type'>;

/** Frame types that may only go to a peer that announced the named feature. */
const REQUIRED_FEATURE: Partial<Record<FrameType, FeatureName>> = {
  'agent.thinking.delta': 'thinking_stream',
  'agent.thinking.done': 'thinking_stream',
  'tool.invoke.stream': 'tool_streaming',
  'agent.subagent.started': 'subagent',
  'agent.subagent.ended': 'subagent',
  'control.file.search': 'file_search_fuzzy',
  'control.file.search.cancel': 'file_search_fuzzy',
  'control.mode.switch': 'plan_mode',
};

export interface SendDecision {
  allowed: boolean;
  /** The feature the peer would have had to announce. */
  feature?: FeatureName;
  reason?: string;
}

/** May a frame of `type` be sent to a peer whose features are `peer`? */
export function maySend(type: string, peer: FeatureSet | undefined): SendDecision {
  const feature = REQUIRED_FEATURE[type as FrameType];
  if (!feature) return { allowed: true };
  if (peer?.[feature] === true) return { allowed: true, feature };
  return { allowed: false, feature, reason: `peer did not announce ${feature}: ${type} must not be sent (§12.2.1)` };
}

/** Does the peer support a feature? Unannounced means no. */
export function supports(peer: FeatureSet | undefined, feature: FeatureName): boolean {
  return peer?.[feature] === true;
}

/** The feature a frame type needs, if any (for docs and the validator). */
export function requiredFeature(type: string): FeatureName | undefined {
  return REQUIRED_FEATURE[type as FrameType];
}

/** Every optional feature: what a peer that renders every frame type announces (§12.2.1). */
export const EVERY_FEATURE: Readonly<FeatureSet> = Object.freeze({
  thinking_stream: true,
  tool_streaming: true,
  structured_output: true,
  subagent: true,
  subagent_context: true,
  context_compaction: true,
  plan_mode: true,
  file_reference: true,
  file_search_fuzzy: true,
});
