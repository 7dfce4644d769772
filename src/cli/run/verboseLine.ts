// `rawp run --verbose`: the session's events on stderr as they happen, one line each — who sent
// it, its type and what matters in it (the tool and its target, the stop reason, an error's code) —
// so a CI log shows what the agent did without the whole stream-json. Deltas and stream chunks are
// left out (the answer is on stdout). The headless trial of 2026-12-05 found --verbose printed
// nothing: only the host's own log lines went there, and it had none.
import type { WireFrame } from '../../protocol/frameTypes';
import { showControls } from '../controlPictures';

const QUIET = new Set(['agent.text.delta', 'agent.thinking.delta', 'tool.invoke.stream', 'session.usage']);

/** The line for `frame`, or undefined for one too frequent to list. */
export function verboseLine(frame: WireFrame, from: 'client' | 'master'): string | undefined {
  if (QUIET.has(frame.type)) return undefined;
  const p = (frame.payload ?? {}) as Record<string, unknown>;
  const bits: string[] = [];
  const add = (v: unknown) => {
    if (typeof v === 'string' && v !== '') bits.push(clip(v));
    else if (typeof v === 'number' || typeof v === 'boolean') bits.push(String(v));
  };
  switch (frame.type) {
    case 'tool.invoke.request': {
      add(p.tool_name);
      const input = (p.input ?? {}) as Record<string, unknown>;
      add(input.command ?? input.file_path ?? input.path ?? input.pattern);
      break;
    }
    case 'tool.invoke.result':
      add(p.status);
      add(p.error_code);
      break;
    case 'agent.error':
    case 'session.error':
      add(p.error_code);
      add(p.message);
      break;
    case 'session.turn.end':
      add(p.stop_reason);
      break;
    case 'agent.interaction.request':
      add(p.interaction_type);
      add(p.question_text);
      break;
    case 'control.interaction.response':
      add(p.selected_value);
      break;
    case 'control.prompt.request':
      add(p.prompt_text);
      break;
  }
  return `rawp run: [${from === 'client' ? 'agent' : 'run'}] ${frame.type}${bits.length ? ` ${bits.join(' · ')}` : ''}`;
}

function clip(s: string): string {
  const one = showControls(s.replace(/\s+/g, ' ').trim());
  return one.length > 160 ? `${one.slice(0, 160)}…` : one;
}
