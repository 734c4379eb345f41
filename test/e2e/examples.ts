import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '../helpers/net.js';

export interface ExampleServer {
  url: string;
  close(): Promise<void>;
}

/** Starts an example client as a child process and waits until it says it is listening. */
export async function startExample(
  script: string,
  env: Record<string, string>,
  port?: number,
): Promise<ExampleServer> {
  port ??= await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, [script], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${script} did not start: ${output}`)),
      10_000,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('listening on')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code}: ${output}`));
    });
  });
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Exactly the redirect URI each example registers for itself. */
export const webBackendRedirect = (url: string) => `${url}/callback`;
export const spaRedirect = (url: string) => `${url}/`;
