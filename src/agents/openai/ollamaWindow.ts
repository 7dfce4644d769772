// The context window an Ollama server runs a model with (decision 734). Ollama's OpenAI-compatible
// endpoint (`…/v1`) cuts a prompt longer than the window itself, keeping its end, and answers as if
// nothing happened — the model loses the system prompt and the oldest messages and nobody is told
// (newer versions refuse instead, for some models). Its default window is 4,096 tokens (2,048
// before), whatever the model could take, and the `…/v1` requests cannot raise it. Its own API
// says the window of each loaded model: `GET /api/ps` lists them with `context_length`. So before
// a call, while the window is not known, the agent asks there; the model is listed only once it is
// loaded, so the first time it is not, it is loaded first (`POST /api/generate` with only the
// model: Ollama's documented way, what the call would do anyway).
//
// Any other server answers `/api/ps` with an error or something else: then it is never asked again.
import { z } from 'zod';
import { inContextWindowRange } from './conversation';
import { bearer, getServerJson } from './serverJson';
import { boundedBodyText } from './streamLimits';

/** The most of its answer read (a model's entry is ~0.5 KB). */
const PS_MAX_BYTES = 256 * 1024;
/** Calls after which a model still not listed (a name Ollama spells otherwise) stops being looked for. */
const MAX_MISSES = 3;

const RunningModels = z.object({
  models: z.array(z.object({ name: z.string().optional(), model: z.string().optional(), context_length: z.unknown().optional() }).passthrough()).max(1_000),
});

/** `http://host:11434/v1` → `http://host:11434`; undefined for a base URL not ending in `/v1`. */
export function ollamaRoot(baseUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return undefined;
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (!path.endsWith('/v1') || url.username || url.password) return undefined;
  return `${url.origin}${path.slice(0, -3)}`;
}

/** Ollama's names carry a tag; `qwen3` is `qwen3:latest`. */
function sameModel(listed: string | undefined, asked: string): boolean {
  if (!listed) return false;
  const a = listed.toLowerCase();
  const b = asked.toLowerCase();
  return a === b || (!b.includes(':') && a === `${b}:latest`);
}

type Answer = { kind: 'window'; tokens: number } | { kind: 'listed without a window' } | { kind: 'not listed' } | { kind: 'not ollama' };

export interface OllamaWindowOptions {
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** How long loading the model may take (the agent's idle timeout for a model call). */
  loadTimeoutMs: number;
}

export class OllamaWindow {
  private readonly root: string | undefined;
  private done: boolean;
  private misses = 0;
  private loadTried = false;

  constructor(private readonly options: OllamaWindowOptions) {
    this.root = ollamaRoot(options.baseUrl);
    this.done = this.root === undefined;
  }

  /** The window the server runs the model with, when it is Ollama and says it; asked until it is known or cannot be. */
  async window(signal: AbortSignal): Promise<number | undefined> {
    if (this.done || signal.aborted) return undefined;
    let answer = await this.running(signal);
    if (answer.kind === 'not listed' && !this.loadTried) {
      this.loadTried = true;
      if (await this.load(signal)) answer = await this.running(signal);
    }
    if (answer.kind === 'not listed') {
      if (++this.misses >= MAX_MISSES) this.done = true;
      return undefined;
    }
    this.done = true;
    return answer.kind === 'window' ? answer.tokens : undefined;
  }

  private async running(signal: AbortSignal): Promise<Answer> {
    // No answer of Ollama's shape (an error, another server's, nothing within 5 s): not Ollama.
    const running = await getServerJson(`${this.root}/api/ps`, RunningModels, { apiKey: this.options.apiKey, maxBytes: PS_MAX_BYTES, signal });
    if (!running) return { kind: 'not ollama' };
    const entry = running.models.find((m) => sameModel(m.name, this.options.model) || sameModel(m.model, this.options.model));
    if (!entry) return { kind: 'not listed' };
    return inContextWindowRange(entry.context_length) ? { kind: 'window', tokens: entry.context_length } : { kind: 'listed without a window' };
  }

  /** Loads the model (an empty request), so that `/api/ps` lists it; false when that failed. */
  private async load(signal: AbortSignal): Promise<boolean> {
    try {
      const response = await fetch(`${this.root}/api/generate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...bearer(this.options.apiKey) },
        body: JSON.stringify({ model: this.options.model }),
        signal: AbortSignal.any([signal, AbortSignal.timeout(this.options.loadTimeoutMs)]),
      });
      await boundedBodyText(response, PS_MAX_BYTES);
      return response.ok;
    } catch {
      return false;
    }
  }
}
