// Every stream a test records is also checked by the validator (`rawp validate`), so the engine
// passes it everywhere, not only in the tests written for it (issue 14). Recorders register their
// stream here; a root hook (.mocharc.js) validates what the finished test registered and fails
// the test on any error. A test that feeds a deliberately broken stream opts out with `expectBroken`.
import { formatText, validateText } from '../../src/protocol/conformance';

type Source = () => readonly unknown[];

let sources: { what: string; frames: Source }[] = [];
let optedOut = false;

/** A recorder's frames, in the order they crossed (both directions where it sees both). */
export function registerStream(what: string, frames: Source): void {
  sources.push({ what, frames });
}

/** This test's streams break rules on purpose (input checks): not validated. */
export function expectBroken(): void {
  optedOut = true;
}

export function checkRegisteredStreams(): string | undefined {
  const mine = sources;
  const skip = optedOut;
  sources = [];
  optedOut = false;
  if (skip) return undefined;
  for (const s of mine) {
    const frames = s.frames();
    if (frames.length === 0) continue;
    const text = frames.map((f) => JSON.stringify(f)).join('\n');
    const r = validateText(text);
    if (r.errors > 0 && process.env.RAWP_STREAM_DUMP) require('node:fs').writeFileSync(process.env.RAWP_STREAM_DUMP, text);
    if (r.errors > 0) return `${s.what}: the recorded stream breaks a MUST (rawp validate):\n${formatText({ ...r, problems: r.problems.filter((p) => p.severity === 'error') })}`;
  }
  return undefined;
}

export const mochaHooks = {
  afterEach(this: { currentTest?: { state?: string; title: string; error?: unknown } }) {
    const problem = checkRegisteredStreams();
    if (!problem || this.currentTest?.state !== 'passed') return;
    // RAWP_STREAM_CHECK=report lists every finding without stopping the run (a survey).
    if (process.env.RAWP_STREAM_CHECK === 'report') return void console.log(`STREAMCHECK ${this.currentTest.title}\n${problem}`);
    throw new Error(problem);
  },
};
