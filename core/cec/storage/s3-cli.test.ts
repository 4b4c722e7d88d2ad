import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runSvc } from '../../cli/test-support.ts';
import { SFCECClient } from '../client.ts';
import { exportPublicKey } from '../ed25519.ts';
import { seedDays, tempApp } from '../test-support.ts';
import { type LocalS3, startLocalS3 } from './s3-server.test-support.ts';

const run = promisify(execFile);

/** `svc ...` in-process through the real entry point, output captured, with extra environment. */
const svc = async (args: string[], env: NodeJS.ProcessEnv = {}) => {
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value ?? '');
  try {
    return await runSvc(args);
  } finally {
    vi.unstubAllEnvs();
  }
};

let s3: LocalS3;
let fixture: ReturnType<typeof tempApp>;
let presigned = '';
let s3Url = '';
let pemFile = '';
beforeAll(async () => {
  s3 = await startLocalS3();
  fixture = tempApp(s3.env());
  await seedDays(fixture.app, 'cli', ['2026-02-01']);
  const built = await new SFCECClient({ app: fixture.app }).buildBundle('cli', ['2026-02-01', '2026-02-01']);
  presigned = built.download_url;
  s3Url = `s3://${s3.bucket}/${decodeURIComponent(new URL(presigned).pathname.split('/').slice(2).join('/'))}`;
  pemFile = join(fixture.dir, 'producer.pem');
  writeFileSync(pemFile, (await exportPublicKey(fixture.app)).pem);
});
afterAll(async () => {
  fixture.cleanup();
  await s3.close();
});

describe('svc verify and svc serve with object storage', () => {
  it('svc verify takes a presigned URL (no credentials needed) and an s3:// URL (the AWS chain)', async () => {
    const viaUrl = await svc(['verify', presigned, '--public-key', pemFile, '--json']);
    expect(viaUrl.stderr).toBe('');
    expect(viaUrl.code).toBe(0);
    expect(JSON.parse(viaUrl.stdout)).toMatchObject({ overall_valid: true });
    const s3Env = { ...s3.env(), SVC_AUDIT_BYOS_PROVIDER: '' };
    const viaS3 = await svc(['verify', s3Url, '--public-key', pemFile], s3Env);
    expect(viaS3.code).toBe(0);
    expect(viaS3.stdout).toMatch(/: VALID/);
  });

  it('svc verify reports a failed download in one line, never echoing the signature of the URL', async () => {
    const forged = presigned.replace(/X-Amz-Signature=[0-9a-f]+/, `X-Amz-Signature=${'0'.repeat(64)}`);
    const result = await svc(['verify', forged, '--public-key', pemFile]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^svc verify: Download of http:\/\/127\.0\.0\.1:\d+\/evidence-bucket\/.+ failed with HTTP 403: SignatureDoesNotMatch/,
    );
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).not.toContain('X-Amz-');
    const missing = await svc(['verify', `${s3Url}.missing`, '--public-key', pemFile], s3.env());
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^svc verify: Object storage: the object is gone from SVC_BYOS_S3_BUCKET "evidence-bucket"/);
  });

  it('svc serve refuses to start with wrong credentials: one line naming the problem, no stack, no secret (a real process)', async () => {
    const dataDir = join(fixture.dir, 'serve');
    const secret = 'wrong-secret-access-key-0123456789';
    const started = await run(process.execPath, ['bin/svc.js', 'serve', '--port', '0', '--data-dir', dataDir], {
      env: { ...process.env, ...s3.env({ AWS_SECRET_ACCESS_KEY: secret }), SVC_LOG_LEVEL: 'silent' },
      timeout: 120_000,
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
    );
    expect(started.code).toBe(2);
    const lines = started.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^svc serve: Object storage: the AWS credentials were refused by SVC_BYOS_S3_ENDPOINT .* \(SignatureDoesNotMatch\)/,
    );
    expect(started.stderr).not.toContain(secret);
  }, 150_000);
});
