// `rawp run` says which command files did not load (decision 727): a run whose `/mycmd` did not
// load went to the agent as plain text, and nothing said why. A warning on stderr, as the run's
// other remarks, whatever the output format: stdout keeps only the answer (json, stream-json
// stay machine-readable; json carries the list, stream-json the publish frame itself). Said in
// English, as the run's own lines are, once per distinct list (the opening's publish and the
// engine's start list are the same list). The list is the run's own host's, typed as it built it
// (HeadlessRun's `onUnloadedCommands`, decision 731): no second parse of a frame we made.
import type { UnloadedCommands } from '../../host/headlessRun';
import { UnloadedNews } from '../attach/unloadedNotice';
import type { VerbIo } from '../verb';

/** The run's listener that writes `rawp run: warning: N command files could not be loaded: …`. */
export function unloadedWarnings(io: Pick<VerbIo, 'stderr'>): (unloaded: UnloadedCommands | undefined) => void {
  const news = new UnloadedNews();
  return (unloaded) => {
    // unloadedText still shows the paths' controls as pictures and cuts them: a file's name is anyone's.
    const line = news.next(unloaded, 'en');
    if (line) io.stderr.write(`rawp run: warning: ${line}\n`);
  };
}
