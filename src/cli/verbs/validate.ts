// `rawp validate` — placeholder replaced by the conformance checker (issue 2 §4).
import type { Verb } from '../verb';

export const validateVerb: Verb = {
  name: 'validate',
  summary: 'check RAWP-DPS frames (JSON lines) against the schemas and sequence rules',
  help: 'Usage: rawp validate [FILE] [--json]\n',
  async run(_argv, io) {
    io.stderr.write('rawp validate: not built yet\n');
    return 2;
  },
};
