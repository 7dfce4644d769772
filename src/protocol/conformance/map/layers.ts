// Which layer of our code keeps each clause (for the "uncovered" lists of the conformance map, so
// a reader knows where a fix belongs). Not the clause's owner in the catalogue (client / master /
// composer): that says which side of the protocol must keep it. The most specific key wins: a
// clause id, then its section, then its parents.
export type Layer = 'protocol' | 'session' | 'remote' | 'agents' | 'tools' | 'workspace' | 'commands' | 'webview-ui' | 'extension' | 'cli';

const OWNERS: Record<string, Layer> = {
  '1.3': 'protocol', // only rawp-dps-1.0 is spoken
  '2.1': 'protocol', // envelope schema
  '2.2': 'protocol', // parseFrame outcomes
  '2.3': 'protocol', // transcript reducer reorders session.history
  '2.4': 'session', // hub fan-out to every connection
  '3.1.1': 'protocol',
  '3.2': 'protocol',
  '4.4.1': 'session', // fatal agent.error cleans the process up
  '5.3.3': 'agents', // adapters stamp output_type (protocol/outputType decides)
  '5.4.1': 'session', // tool policy enforces catalog status
  '6.1.2': 'session',
  '6.3.1': 'session',
  '6.3.2': 'session',
  '§6.3.2-7': 'webview-ui', // the master UI must not send mode switches to a client without plan_mode
  '7.1.1': 'webview-ui', // tell the user a history was truncated
  '7.3.1': 'session',
  '7.5': 'session',
  '7.6.1': 'remote',
  '7.7.1': 'session',
  '§7.7.1-2': 'remote',
  '7.8': 'protocol', // transcript reducer: finalization / unfinalization
  '10': 'agents',
  '10.6': 'webview-ui', // grouping subagent messages
  '12.2.1': 'session',
  '§12.2.1-3': 'webview-ui', // the master sends control.file.search
  '13.1': 'session',
  '14.1': 'protocol',
  '14.2': 'protocol',
  '§14.2-4': 'session',
  '15': 'session', // tool whitelist
  '§15-2': 'tools', // subagent allowed_tools
  '§15-3': 'webview-ui', // redacted thinking never shown raw
  '§15-4': 'webview-ui', // failed structured output re-validated before use
  '16.2.1': 'protocol', // token codec
  '§16.2.1-1': 'webview-ui', // tokens only from the file picker
  '§16.2.1-2': 'webview-ui',
  '16.2.2': 'protocol',
  '§16.2.2-1': 'webview-ui', // escaping typed text when composing the prompt
  '§16.2.2-2': 'webview-ui',
  '16.3': 'agents',
  '17': 'agents',
  '17.3.2': 'session', // one prompt at a time
  '18': 'agents',
};

export function layerOf(clauseId: string, section: string): Layer {
  if (OWNERS[clauseId]) return OWNERS[clauseId];
  for (let s = section; s; s = s.includes('.') ? s.slice(0, s.lastIndexOf('.')) : '') {
    if (OWNERS[s]) return OWNERS[s];
  }
  return 'protocol';
}
