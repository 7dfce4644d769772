// `npm run bench`: runs every `bench:*` script of package.json one after another (never in
// parallel: they measure time on a 2-core machine) and repeats their closing JSON lines at the end.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const scripts = Object.keys(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).scripts)
  .filter((name) => name.startsWith('bench:'))
  .sort();
const lines = [];
let failed = 0;
for (const name of scripts) {
  console.log(`\n=== npm run ${name}`);
  const run = spawnSync('npm', ['run', '--silent', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  process.stdout.write(run.stdout ?? '');
  if (run.status !== 0) {
    failed++;
    console.log(`${name} failed with exit code ${run.status}`);
  }
  for (const line of (run.stdout ?? '').split('\n')) if (/^\{"bench":/.test(line.trim())) lines.push(line.trim());
}
console.log('\n=== summary');
for (const line of lines) console.log(line);
process.exitCode = failed ? 1 : 0;
