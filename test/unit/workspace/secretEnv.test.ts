// Which variables are credentials (src/workspace/secretEnv.ts): the rule tool environments and the
// host's start environment are filtered by. Names the first rule let through, found by the
// adversarial review of 2026-12-06 (decision 668), and names and values that must stay.
import { strict as assert } from 'node:assert';
import { isSecretVariable } from '../../../src/workspace/secretEnv';

describe('workspace/secretEnv: credentials by name or by value (decisions 181, 668)', () => {
  it('finding 11: personal access tokens, *_PWD, DSNs, webhooks, npm/PyPI tokens, Stripe and PEM keys, and URLs with credentials are secrets', () => {
    const secret: Record<string, string> = {
      GITHUB_PAT: 'x',
      GH_PAT: 'x',
      MYSQL_PWD: 'x',
      SENTRY_DSN: 'x',
      SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T/B/X',
      NPM_CONFIG__AUTHTOKEN: 'x',
      NPM_TOKEN: 'x',
      PYPI_APITOKEN: 'x',
      DOCKER_AUTH_CONFIG: '{}',
      STRIPE_SK: 'x',
      JWT_SIGNING_KEY_PEM: 'x',
      OPENAI_API_KEY: 'x',
      DATABASE_URL: 'postgres://user:pw@db.example.com/app',
      REDIS_URL: 'redis://:pw@cache:6379',
      MONGODB_URI: 'mongodb+srv://user:pw@cluster0.example.net/x',
      GIT_REMOTE: 'https://ghp_0123456789abcdef0123@github.com/o/r',
    };
    for (const [name, value] of Object.entries(secret)) assert.equal(isSecretVariable(name, value), true, name);
  });

  it('finding 11: the working directory, paths, proxies, plain URLs and look-alike names stay', () => {
    const plain: Record<string, string> = {
      PWD: '/home/u/project',
      OLDPWD: '/tmp',
      PATH: '/usr/bin:/bin',
      HOME: '/home/u',
      API_URL: 'https://api.example.com/v1',
      DATABASE_HOST: 'db',
      GIT_SSH_URL: 'ssh://git@github.com/o/r',
      HTTP_PROXY: 'http://proxy:8080',
      SSH_AUTH_SOCK: '/tmp/ssh-agent.sock',
      KEYTIMEOUT: '1',
      TOKENIZERS_PARALLELISM: 'false',
      DISK: 'sda',
      TASK: 'build',
      NODE_OPTIONS: '--max-old-space-size=4096',
    };
    for (const [name, value] of Object.entries(plain)) assert.equal(isSecretVariable(name, value), false, name);
  });
});
