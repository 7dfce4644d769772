// Destructive shell commands, for the policy's risk level (§4.3.1). Written by the tools'
// security work (issue 12 finding 2) and kept here unchanged, where the one policy lives.

/**
 * A destructive shell command (`rm -rf`, `sudo`, `mkfs`, `dd if=`, `chmod -R`, `git push --force`,
 * `git reset --hard`, `> /dev/sd…`, `curl … | sh`, …), found by scanning the command's words once:
 * linear time on any command (issue 12 finding 2 — the regex this replaces took 1.2 s on a
 * 100 KB `curl curl …`, before the prompt was even shown).
 */
export function isDangerousCommand(command: string): boolean {
  const words = command.split(/[\s;&|()]+/).filter(Boolean);
  const has = (w: string) => words.includes(w);
  if (['sudo', 'mkfs', 'shutdown', 'reboot'].some(has) || words.some((w) => w.startsWith('mkfs.'))) return true;
  // Last positions of the words that make an earlier `dd` / `git push` destructive (one pass, no rescans).
  let lastIf = -1;
  let lastForce = -1;
  words.forEach((x, i) => {
    if (x.startsWith('if=')) lastIf = i;
    if (x === '--force' || x === '-f' || x.startsWith('--force-')) lastForce = i;
  });
  for (let i = 0; i + 1 < words.length; i++) {
    const [w, next] = [words[i], words[i + 1]];
    if (w === 'rm' && next.startsWith('-') && !next.startsWith('--') && (next.includes('r') || next.includes('f'))) return true;
    if (w === 'rm' && (next === '--recursive' || next === '--force')) return true;
    if (w === 'dd' && lastIf > i) return true;
    if ((w === 'chmod' || w === 'chown') && next === '-R') return true;
    if (w === 'git' && next === 'push' && lastForce > i + 1) return true;
    if (w === 'git' && next === 'reset' && words[i + 2] === '--hard') return true;
  }
  if (command.includes('/dev/sd') && /(?:^|[^>])>>?\s*\/dev\/sd/.test(command)) return true;
  // A download piped into a shell: `curl … | sh`, `wget … | bash`.
  if ((has('curl') || has('wget')) && command.includes('|')) {
    for (let i = command.indexOf('|'); i !== -1; i = command.indexOf('|', i + 1)) {
      const rest = command.slice(i + 1, i + 40).trimStart();
      if (/^(?:ba|z|da)?sh\b/.test(rest)) return true;
    }
  }
  return false;
}
