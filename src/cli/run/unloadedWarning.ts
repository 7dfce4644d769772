// `rawp run` says which command files did not load (decision 727): a run whose `/mycmd` did not
// load went to the agent as plain text, and nothing said why. A warning on stderr, as the run's
// other remarks, whatever the output format: stdout keeps only the answer (json, stream-json
// stay machine-readable; stream-json carries the publish frame itself). Said in English, as the
// run's own lines are, once per distinct list (the opening's publish and the engine's start list
// are the same list).
import type { WireFrame } from '../../protocol/frameTypes';
import { UnloadedCommandFiles } from '../../protocol/payloads/agent';
import { UnloadedNews } from '../attach/unloadedNotice';
import type { VerbIo } from '../verb';

/** The run's frame observer that writes `rawp run: warning: N command files could not be loaded: …`. */
export function unloadedWarnings(io: Pick<VerbIo, 'stderr'>): (frame: WireFrame) => void {
  const news = new UnloadedNews();
  return (frame) => {
    if (frame.type !== 'agent.commands.publish') return;
    // The frame's one schema: what is printed has the bounds it gives (at most 100 files, 4 KiB each).
    const unloaded = UnloadedCommandFiles.optional().safeParse((frame.payload as { unloaded?: unknown } | undefined)?.unloaded);
    if (!unloaded.success) return;
    const line = news.next(unloaded.data, 'en');
    if (line) io.stderr.write(`rawp run: warning: ${line}\n`);
  };
}
