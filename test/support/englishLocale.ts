// The built-in agent speaks the locale's language (LANG=ko_KR.UTF-8: Korean, decision 572), and most
// tests check its English words: the suite runs in an English locale whatever the machine's is.
// The tests of its Korean name their locale themselves.
for (const key of ['LC_ALL', 'LC_MESSAGES', 'LANG']) if (/^ko/i.test(process.env[key] ?? '')) process.env[key] = 'C.UTF-8';
