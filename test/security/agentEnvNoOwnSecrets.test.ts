// Decision 542: an agent CLI (and every shell command it runs) never gets our own secrets —
// `rawp serve`'s RAWP_TOKEN, RAWP_OPENAI_API_KEY — but still gets the keys it needs itself.
import { strict as assert } from 'node:assert';
import { AgentProcess } from '../../src/agents/process/agentProcess';
import { childEnv, isOurSecret } from '../../src/agents/process/env';

const OURS = { RAWP_TOKEN: 'tok_' + 'x'.repeat(40), RAWP_OPENAI_API_KEY: 'sk-ours', rawp_token: 'lower' };
const THEIRS = { ANTHROPIC_API_KEY: 'sk-ant', OPENAI_API_KEY: 'sk-oai', CODEX_API_KEY: 'ck', GEMINI_API_KEY: 'gk', GITHUB_TOKEN: 'ghp', CLAUDE_CODE_OAUTH_TOKEN: 'oauth', RAWP_CLAUDE_PATH: '/opt/claude', PATH: process.env.PATH ?? '/usr/bin:/bin' };

/** What a real child process sees in its environment (it prints it as one JSON line). */
function envSeenByChild(baseEnv: NodeJS.ProcessEnv, env?: Record<string, string>): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    let seen: Record<string, string> | undefined;
    const p = AgentProcess.spawn({
      command: process.execPath,
      args: ['-e', 'console.log(JSON.stringify(process.env))'],
      session_id: 's1',
      workspacePath: process.cwd(),
      baseEnv,
      ...(env ? { env } : {}),
      onMessage: (v) => (seen = v as Record<string, string>),
    });
    void p.exited.then(() => (seen ? resolve(seen) : reject(new Error('the child printed nothing'))));
  });
}

describe('security: agent processes never get our own secrets (decision 542)', () => {
  it('a real agent child sees the agents\' keys but not RAWP_TOKEN or RAWP_OPENAI_API_KEY', async () => {
    const seen = await envSeenByChild({ ...OURS, ...THEIRS });
    for (const k of Object.keys(OURS)) assert.equal(seen[k], undefined, k);
    for (const [k, v] of Object.entries(THEIRS)) assert.equal(seen[k], v, k);
    assert.equal(seen.RAWP_SESSION_ID, 's1');
  });

  it('the default base is process.env, as `rawp serve` leaves it', () => {
    const before = process.env.RAWP_TOKEN;
    process.env.RAWP_TOKEN = OURS.RAWP_TOKEN;
    try {
      const env = childEnv({ session_id: 's', workspacePath: '/w' });
      assert.equal(env.RAWP_TOKEN, undefined);
    } finally {
      if (before === undefined) delete process.env.RAWP_TOKEN;
      else process.env.RAWP_TOKEN = before;
    }
  });

  it('an agent config that names a value itself still sets it', () => {
    const env = childEnv({ session_id: 's', workspacePath: '/w' }, { RAWP_OPENAI_API_KEY: 'from-config', ANTHROPIC_API_KEY: 'from-secret-storage' }, OURS);
    assert.equal(env.RAWP_OPENAI_API_KEY, 'from-config');
    assert.equal(env.ANTHROPIC_API_KEY, 'from-secret-storage');
    assert.equal(env.RAWP_TOKEN, undefined);
  });

  it('only RAWP_ secrets count as ours', () => {
    assert.deepEqual(['RAWP_TOKEN', 'RAWP_OPENAI_API_KEY', 'RAWP_SESSION_ID', 'RAWP_CLAUDE_PATH', 'RAWP_PROCESS_TAG', 'OPENAI_API_KEY', 'GITHUB_TOKEN'].filter(isOurSecret), ['RAWP_TOKEN', 'RAWP_OPENAI_API_KEY']);
  });
});
