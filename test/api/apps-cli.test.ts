import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/index.js';
import { TEST_SECRET } from '../helpers/app.js';

/** Registering an application from the command line (docs/api.md §8.3). */
describe('account-center app create', () => {
  it('prints the view and the secret as JSON', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ac-cli-'));
    const saved = { ...process.env };
    Object.assign(process.env, {
      DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
      JWT_SECRET: TEST_SECRET,
      LOG_LEVEL: 'silent',
      BASE_URL: 'http://127.0.0.1:3000',
    });
    const out: string[] = [];
    const spy = vi
      .spyOn(process.stdout, 'write')
      .mockImplementation((chunk) => {
        out.push(String(chunk));
        return true;
      });
    const errs: string[] = [];
    const errSpy = vi
      .spyOn(process.stderr, 'write')
      .mockImplementation((chunk) => {
        errs.push(String(chunk));
        return true;
      });
    try {
      await main([
        'user',
        'create',
        '--username',
        'dev_one',
        '--password',
        'correct horse',
        '--email',
        'dev@example.com',
      ]);
      out.length = 0;
      await main([
        'app',
        'create',
        '--owner',
        'dev_one',
        '--name',
        'CLI App',
        '--redirect-uri',
        'https://cli.example.com/cb',
        '--client-id',
        'cli-app',
      ]);
      expect(errs.join('')).toBe('');
      const created = JSON.parse(out.join(''));
      expect(created).toMatchObject({
        client_id: 'cli-app',
        display_name: 'CLI App',
        client_type: 'confidential',
        redirect_uris: ['https://cli.example.com/cb'],
        has_secret: true,
      });
      expect(created.client_secret).toMatch(/^[A-Za-z0-9_-]{43,}$/);
      out.length = 0;
      await main([
        'app',
        'create',
        '--owner',
        'dev_one',
        '--name',
        'Native',
        '--redirect-uri',
        'com.example.app:/cb',
        '--public',
      ]);
      const pub = JSON.parse(out.join(''));
      expect(pub).toMatchObject({ client_type: 'public', has_secret: false });
      expect(pub.client_secret).toBeUndefined();
      await main([
        'app',
        'create',
        '--owner',
        'dev_one',
        '--name',
        'Dup',
        '--redirect-uri',
        'https://cli.example.com/cb',
        '--client-id',
        'account-center',
      ]);
      expect(process.exitCode).toBe(2);
    } finally {
      process.exitCode = 0;
      spy.mockRestore();
      errSpy.mockRestore();
      process.env = saved;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
