// Child process of ignoreFiles.test.ts: lists one folder as the @ index does (listFiles, from git or
// by the walk) and prints what it listed, how long it took, its longest event-loop block and the
// notices about ignore files. In a child because the failure it guards against is a listing that
// never returns (a .gitignore linked to /dev/zero held the loop for good): the test can kill it.
import { listFiles } from '../../src/workspace/listFiles';
import { setIgnoreWarningSink } from '../../src/workspace/ignoreLimits';
import { worstBlockMs } from '../support/eventLoopBlock';

async function main(): Promise<void> {
  const [root, mode, gitTimeout] = process.argv.slice(2);
  const warnings: string[] = [];
  setIgnoreWarningSink((m) => warnings.push(m));
  let listing: Awaited<ReturnType<typeof listFiles>> | undefined;
  const t0 = performance.now();
  const blockMs = await worstBlockMs(async () => {
    listing = await listFiles(root, { caseSensitive: true, noGit: mode === 'walk', ...(gitTimeout ? { gitTimeoutMs: Number(gitTimeout) } : {}) });
  });
  const ms = performance.now() - t0;
  process.stdout.write(JSON.stringify({ paths: listing?.paths.sort(), source: listing?.source, ms, blockMs, warnings, rssMB: process.memoryUsage().rss / 2 ** 20 }) + '\n');
}

void main();
