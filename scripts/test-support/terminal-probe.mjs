// Run under `ofkit exec` on a pseudo-terminal by exec-signals.test.ts: says whether it is the
// terminal's foreground process group, then reads one key in raw mode, as a watch mode does.
import { readFileSync } from 'node:fs';

const stat = readFileSync('/proc/self/stat', 'utf8');
const [, , pgrp, , , tpgid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
console.log(`foreground=${pgrp === tpgid ? 'yes' : 'no'} tty=${process.stdin.isTTY}`);
process.stdin.setRawMode(true);
process.stdin.once('data', (key) => {
  console.log(`key=${key}`);
  process.exit(0);
});
console.log('ready');
