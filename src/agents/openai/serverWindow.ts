// The context window a model server says it serves the model with, asked before the first call
// while the user gave none (decisions 734, 738): from the model list (`GET {base}/models`, OpenAI's
// own endpoint, where vLLM adds `max_model_len` — its `--max-model-len` — OpenRouter and Together
// `context_length`, Groq `context_window`), else from Ollama's `/api/ps` (ollamaWindow.ts). Known
// from the start, the window is reported in the first turn's usage (the chat's context meter) and
// no call is sent only to be refused for length. OpenAI itself, LM Studio and llama.cpp name none
// there: a refusal still teaches it (decision 730).
import { z } from 'zod';
import { modelsUrl } from './baseUrl';
import { inContextWindowRange } from './conversation';
import { OllamaWindow, type OllamaWindowOptions } from './ollamaWindow';
import { getServerJson } from './serverJson';

/** The most of a model list read: OpenRouter's, with every model's description, is ~1–2 MB. */
const MODELS_MAX_BYTES = 4 * 1024 * 1024;

const ModelList = z.object({
  data: z.array(z.object({ id: z.string(), max_model_len: z.unknown().optional(), context_length: z.unknown().optional(), context_window: z.unknown().optional() }).passthrough()),
});

/** The window the model list names for `model`, if it names one. */
export async function modelsListWindow(o: Pick<OllamaWindowOptions, 'baseUrl' | 'apiKey' | 'model'>, signal: AbortSignal): Promise<number | undefined> {
  const list = await getServerJson(modelsUrl(o.baseUrl), ModelList, { apiKey: o.apiKey, maxBytes: MODELS_MAX_BYTES, signal });
  const entry = list?.data.find((m) => m.id === o.model);
  return [entry?.max_model_len, entry?.context_length, entry?.context_window].find(inContextWindowRange);
}

export interface ServerWindowAnswer {
  tokens: number;
  /** Ollama's: its window is raised on the server (OLLAMA_CONTEXT_LENGTH), which the warning says. */
  ollama: boolean;
}

export class ServerWindow {
  private listAsked = false;
  private readonly ollama: OllamaWindow;

  constructor(private readonly options: OllamaWindowOptions) {
    this.ollama = new OllamaWindow(options);
  }

  /** The window, when the server names it; the model list is asked once, Ollama until known or not Ollama. */
  async window(signal: AbortSignal): Promise<ServerWindowAnswer | undefined> {
    if (!this.listAsked) {
      this.listAsked = true;
      const listed = await modelsListWindow(this.options, signal);
      if (listed !== undefined) return { tokens: listed, ollama: false };
    }
    const tokens = await this.ollama.window(signal);
    return tokens === undefined ? undefined : { tokens, ollama: true };
  }
}
