// Issue 12 findings 8, 10 and 11 (tools half) against a real `rawp serve` over loopback: session
// Bash rules scoped the way they were shown, tool processes that die with the host even after
// `kill -9`, and a tool environment without the host's API keys.
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promptTurn, serve, waitFor, type Served } from './serveChild';

/** Pids of live processes whose command line contains `tag`. */
function processesWith(tag: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(tag)) pids.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

describe('security/tools: Bash rules, tool processes and their environment (issue 12)', function () {
  this.timeout(180_000);
  let served: Served | undefined;
  afterEach(() => {
    served?.close();
    served = undefined;
  });

  it('§17.3.1 finding 8: "allow for this session" on `find . -name "*.md"` covers that command but never `find /outside … -delete`, an added option (-type, -delete, -exec; decision 670), or `python3 -c`', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'rawp-outside-'));
    writeFileSync(join(outside, 'x'), 'keep me');
    try {
      served = await serve({ 'a.md': '# a\n', 'b.txt': 'b\n' });
      const m = await served.master();
      const first = await promptTurn(m, 'run `find . -name "*.md"`', 'allow_session');
      assert.equal(first.asked.length, 1);
      const option = first.asked[0].payload.options?.find((o) => o.value === 'allow_session');
      assert.match(option?.description ?? '', /exactly `find \. -name "\*\.md"`/, 'the prompt shows the whole command the rule allows');
      assert.match(JSON.stringify(first.results[0]?.payload.output), /a\.md/, 'the command ran and found a.md');

      const again = await promptTurn(m, 'run `find . -name "*.md"`');
      assert.equal(again.asked.length, 0, 'the same command runs under the session rule');
      // Any added option asks again (decision 670: `tar -I ./x.sh` ran under a rule for `tar -tf a.tar`).
      const withOption = await promptTurn(m, 'run `find . -name "*.md" -type f`', 'reject');
      assert.equal(withOption.asked.length, 1, 'an added option is not within the rule');

      const attacks = [`find ${outside} -name x -delete`, 'find . -name "*.md" -delete', 'find . -name "*.md" -exec rm {} +', `python3 -c "import os; os.remove('${join(outside, 'x')}')"`, 'find . -name "*.md" -fprint leak.txt'];
      for (const command of attacks) {
        const t = await promptTurn(m, `run \`${command}\``, 'reject');
        assert.equal(t.asked.length, 1, `asked before running: ${command}`);
      }
      assert.equal(readFileSync(join(outside, 'x'), 'utf8'), 'keep me', 'nothing outside was deleted');
      assert.ok(existsSync(join(served.dir, 'a.md')) && !existsSync(join(served.dir, 'leak.txt')));
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('finding 11: tool commands get no ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY, RAWP_TOKEN or other *_API_KEY/*_TOKEN/secret variable of the host, and keep PATH and HOME', async () => {
    const secrets: Record<string, string> = {
      ANTHROPIC_API_KEY: 'sk-ant-sectest-1',
      OPENAI_API_KEY: 'sk-openai-sectest-2',
      GEMINI_API_KEY: 'gem-sectest-3',
      RAWP_TOKEN: 'rawp-sectest-4',
      RAWP_OPENAI_API_KEY: 'rawp-openai-sectest-5',
      GITHUB_TOKEN: 'ghp-sectest-6',
      AWS_SECRET_ACCESS_KEY: 'aws-sectest-7',
      MY_SERVICE_PASSWORD: 'pw-sectest-8',
      CLAUDE_CODE_OAUTH_TOKEN: 'oauth-sectest-9',
      // Names the first rule missed (the adversarial review of 2026-12-06; decision 668).
      GITHUB_PAT: 'pat-sectest-10',
      MYSQL_PWD: 'pwd-sectest-11',
      DATABASE_URL: 'postgres://u:dbpass-sectest-12@h/db',
      REDIS_URL: 'redis://:redis-sectest-13@h:6379',
      SENTRY_DSN: 'https://dsn-sectest-14-0123456789@o1.ingest.sentry.io/1',
      SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/webhook-sectest-15',
      NPM_CONFIG__AUTHTOKEN: 'npm-sectest-16',
      PYPI_APITOKEN: 'pypi-sectest-17',
      STRIPE_SK: 'sk-live-sectest-18',
    };
    served = await serve({}, { env: { ...secrets, RAWP_HARMLESS_SETTING: 'visible-sectest', API_URL: 'https://api.example.com/v1' } });
    const m = await served.master();
    const t = await promptTurn(m, 'run `env`', 'allow_once');
    const out = String(t.results[0]?.payload.output ?? '');
    assert.equal(t.results[0]?.payload.status, 'success');
    assert.match(out, /^PATH=/m);
    assert.match(out, /^HOME=/m);
    assert.match(out, /RAWP_HARMLESS_SETTING=visible-sectest/);
    assert.match(out, /^API_URL=https:\/\/api\.example\.com\/v1$/m, 'a URL without credentials stays');
    for (const [name, value] of Object.entries(secrets)) {
      assert.ok(!out.includes(value), `${name} reached the tool command`);
      assert.ok(!new RegExp(`^${name}=`, 'm').test(out), `${name} is set in the tool environment`);
    }
  });

  it('finding 10: after `kill -9` of rawp serve, a running `sleep 6; touch marker` never finishes and leaves no process behind (0 orphans)', async () => {
    served = await serve();
    const m = await served.master();
    const tag = `6.${process.pid % 1000}1`; // a sleep duration no other process uses
    const marker = join(served.dir, 'marker');
    m.client.send('control.prompt.request', { prompt_text: `run \`echo started; sleep 0.1 & sleep ${tag}; touch marker\`` });
    await waitFor(() => m.frames.some((f) => f.type === 'agent.interaction.request'), 'the permission question', 60_000);
    const ask = m.frames.find((f) => f.type === 'agent.interaction.request');
    m.client.send('control.interaction.response', { interaction_id: (ask as { payload: { interaction_id: string } }).payload.interaction_id, selected_value: 'allow_once' });
    await waitFor(() => m.frames.some((f) => f.type === 'tool.invoke.stream') && processesWith(`sleep ${tag}`).length > 0, 'the command runs', 60_000);
    served.proc.kill('SIGKILL');
    await waitFor(() => served!.exited(), 'serve is gone', 30_000);
    // Bounded: the command would have finished 6 s later; wait 8 s, checking all along.
    const until = Date.now() + 8_000;
    while (Date.now() < until) {
      await new Promise((r) => setTimeout(r, 250));
      if (processesWith(`sleep ${tag}`).length === 0) break;
    }
    assert.deepEqual(processesWith(`sleep ${tag}`), [], 'no orphaned process');
    await new Promise((r) => setTimeout(r, Math.max(0, until - Date.now())));
    assert.equal(existsSync(marker), false, 'the command did not finish after the host died');
  });
});
