#!/usr/bin/env node
// Runs a command beside CPU-bound processes, to see whether a suite holds on a busy machine (a shared CI runner,
// a laptop compiling): `node scripts/besideLoad.mjs [--busy 2] [--max-seconds 3600] -- npm test`.
// Each busy process spins one core until the command ends or --max-seconds pass, whichever comes first; the
// command's exit code is this script's.
import { spawn } from 'node:child_process';

const args = process.argv.slice(2);
const split = args.indexOf('--');
if (split < 0 || split === args.length - 1) {
  console.error('usage: node scripts/besideLoad.mjs [--busy N] [--max-seconds S] -- <command> [args…]');
  process.exit(2);
}
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 && at < split ? Number(args[at + 1]) : fallback;
};
const busy = option('--busy', 2);
const maxSeconds = option('--max-seconds', 3600);
if (!Number.isInteger(busy) || busy < 0 || !(maxSeconds > 0)) {
  console.error('--busy takes a whole number, --max-seconds a positive one');
  process.exit(2);
}

const spinners = Array.from({ length: busy }, () =>
  spawn(process.execPath, ['-e', `const end = Date.now() + ${Math.round(maxSeconds * 1000)}; while (Date.now() < end);`], { stdio: 'ignore' }),
);
const stopSpinners = () => spinners.forEach((spinner) => spinner.kill('SIGKILL'));
process.on('exit', stopSpinners);

const started = Date.now();
const [command, ...rest] = args.slice(split + 1);
const child = spawn(command, rest, { stdio: 'inherit', shell: process.platform === 'win32' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  stopSpinners();
  console.error(`besideLoad: ${[command, ...rest].join(' ')} ${signal ? `stopped by ${signal}` : `exited ${code}`} after ${Math.round((Date.now() - started) / 1000)} s beside ${busy} busy processes`);
  process.exit(code ?? 1);
});
