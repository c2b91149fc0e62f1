import { describe, expect, it } from 'vitest';
import { freePort } from '../peers/start-peers.js';
import { startChild } from './child-process.js';

/** A node child that listens on `port` (127.0.0.1) after `delayMs`, printing nothing. */
const silentServer = (port: number, delayMs: number) => [
  '-e',
  `setTimeout(() => require('node:http').createServer((q, s) => s.end('ok')).listen(${port}, '127.0.0.1'), ${delayMs}); process.stdin.resume(); process.stdin.on('end', () => process.exit(0));`,
];

describe('a bench child ready once its URL answers (a peer that prints no port)', () => {
  it('is ready when the polled URL first answers, and is stopped by its PID', async () => {
    const port = await freePort();
    const child = await startChild({
      name: 'silent',
      command: process.execPath,
      args: silentServer(port, 300),
      pollUrl: `http://127.0.0.1:${port}/anything`,
      timeoutMs: 30_000,
    });
    expect(child.url).toBe(`http://127.0.0.1:${port}`);
    expect(await (await fetch(`${child.url}/x`)).text()).toBe('ok');
    await child.stop();
    await expect(fetch(`${child.url}/x`)).rejects.toThrow();
  });

  it('fails, saying so, when the child exits before its URL ever answered', async () => {
    const port = await freePort();
    await expect(
      startChild({
        name: 'gone',
        command: process.execPath,
        args: ['-e', 'process.exit(3)'],
        pollUrl: `http://127.0.0.1:${port}/`,
        timeoutMs: 30_000,
      }),
    ).rejects.toThrow(/gone: exited before it was ready \(code 3/);
  });
});
