// Does a model server's refusal say the conversation is longer than the model's context window,
// and how long the window is, when it says so? Each server words it its own way; these are the
// forms of the servers the OpenAI-compatible agent is made for (decision 730):
//   OpenAI      400 {"error":{"code":"context_length_exceeded","message":"This model's maximum
//               context length is 8192 tokens. However, your messages resulted in 9000 tokens…"}}
//   vLLM        400 "This model's maximum context length is 4096 tokens. However, you requested …"
//   OpenRouter  400 "This endpoint's maximum context length is 32768 tokens. However, …"
//   llama.cpp   400 {"error":{"type":"exceed_context_size_error","n_ctx":4096,"message":"the request
//               exceeds the available context size, try increasing it"}}
//   LM Studio   400 "… the model is loaded with context length of only 4096 tokens, which is not
//               enough …"
//   Anthropic's OpenAI layer 400 "prompt is too long: 210000 tokens > 200000 maximum"
// (Ollama cuts the prompt itself and says nothing.) Only the first 64 KiB of an error body were
// read (streamLimits.ts), and this looks at them with bounded, linear patterns.

export interface ContextOverflow {
  /** The model's context window in tokens, when the server named it. */
  capacity?: number;
  /** The tokens the server counted in what was refused, when it said (a truer count than our estimate). */
  requested?: number;
}

/** Words a refusal for length uses (lowercased body). */
const OVERFLOW_WORDS = [
  'context_length_exceeded',
  'exceed_context_size',
  'maximum context length',
  'context length of only',
  'exceeds the available context size',
  'exceeds the context window',
  'exceeds context length',
  'prompt is too long',
  'input is too long',
  'too many tokens',
  'reduce the length of the messages',
];

/** Where a server names the window's size; the first number group is the capacity. */
const CAPACITY_PATTERNS = [
  /maximum context length is (\d{3,9}) tokens/,
  /context length of only (\d{3,9}) tokens/,
  /"n_ctx"\s*:\s*(\d{3,9})/,
  /\d{3,9} tokens > (\d{3,9}) maximum/,
  /context (?:window|length|size) (?:is|of) (\d{3,9})/,
];

/** Where a server says how many tokens the refused request held. */
const REQUESTED_PATTERNS = [/your messages resulted in (\d{2,9}) tokens/, /you requested (?:about )?(\d{2,9}) tokens \((\d{2,9}) in the messages/, /"n_prompt_tokens"\s*:\s*(\d{2,9})/, /prompt is too long: (\d{2,9}) tokens/, /keep the first (\d{2,9}) tokens/];

/** The refusal's overflow, or undefined when it is some other error. */
export function contextOverflowOf(status: number | undefined, body: string): ContextOverflow | undefined {
  if (status !== undefined && status !== 400 && status !== 413 && status !== 422) return undefined;
  const text = body.slice(0, 65_536).toLowerCase();
  if (!OVERFLOW_WORDS.some((w) => text.includes(w))) return undefined;
  const out: ContextOverflow = {};
  for (const pattern of CAPACITY_PATTERNS) {
    const n = Number(pattern.exec(text)?.[1]);
    if (Number.isSafeInteger(n) && n > 0) {
      out.capacity = n;
      break;
    }
  }
  for (const pattern of REQUESTED_PATTERNS) {
    const m = pattern.exec(text);
    // vLLM counts the completion in: the messages' own count is the second number.
    const n = Number(m?.[2] ?? m?.[1]);
    if (Number.isSafeInteger(n) && n > 0) {
      out.requested = n;
      break;
    }
  }
  return out;
}
