// The endpoint driven by the other unmodified clients, where the machine has them: boto3 and the AWS CLI, with
// their default settings (payloads signed over HTTP, a CRC32 checksum on every upload, 8 MiB multipart chunks).
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { GetObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { describeEachDialect } from '../../helpers';
import { BUCKET, MIB, REGION, SERVER_CREDENTIALS, startStorage, testBytes, type StorageHarness } from './harness';

const run = promisify(execFile);

function available(command: string, args: string[]): boolean {
  try {
    execFileSync(command, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const hasBoto3 = available('python3', ['-c', 'import boto3']);
const hasAwsCli = available('aws', ['--version']);
const md5Hex = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');

describeEachDialect('embedded S3 with boto3 and the AWS CLI', (dialect) => {
  let storage: StorageHarness;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    storage = await startStorage(dialect, { maxObjectBytes: 40 * MIB });
    dir = mkdtempSync(path.join(tmpdir(), 'divilo-s3-clients-'));
    writeFileSync(path.join(dir, 'config'), '[default]\ns3 =\n  addressing_style = path\n');
    env = {
      PATH: process.env.PATH,
      HOME: dir,
      AWS_CONFIG_FILE: path.join(dir, 'config'),
      AWS_SHARED_CREDENTIALS_FILE: path.join(dir, 'credentials'),
      AWS_ACCESS_KEY_ID: SERVER_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: SERVER_CREDENTIALS.secretAccessKey,
      AWS_DEFAULT_REGION: REGION,
    };
  });
  afterAll(async () => {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const read = async (Key: string) => Buffer.from(await (await storage.client().send(new GetObjectCommand({ Bucket: BUCKET, Key }))).Body!.transformToByteArray());

  (hasBoto3 ? it : it.skip)('takes a put and a multipart upload from boto3, and serves them back to it', async () => {
    const small = testBytes(3_000_000);
    const large = testBytes(12 * MIB + 5);
    writeFileSync(path.join(dir, 'small.bin'), small);
    writeFileSync(path.join(dir, 'large.bin'), large);
    const script = `
import boto3, botocore, hashlib, sys
endpoint, folder, bucket = sys.argv[1:4]
s3 = boto3.client('s3', endpoint_url=endpoint, config=botocore.config.Config(s3={'addressing_style': 'path'}, retries={'max_attempts': 1}))
with open(folder + '/small.bin', 'rb') as f:
    put = s3.put_object(Bucket=bucket, Key='public/boto3-small.bin', Body=f.read())
print(put['ETag'])
s3.upload_file(folder + '/large.bin', bucket, 'public/boto3-large.bin')
print(hashlib.md5(s3.get_object(Bucket=bucket, Key='public/boto3-large.bin')['Body'].read()).hexdigest())
`;
    const { stdout } = await run('python3', ['-c', script, storage.endpoint, dir, BUCKET], { env });
    const [etag, readBack] = stdout.trim().split('\n');
    expect(etag).toBe(`"${md5Hex(small)}"`);
    expect(readBack).toBe(md5Hex(large));
    expect((await read('public/boto3-small.bin')).equals(small)).toBe(true);
    expect((await read('public/boto3-large.bin')).equals(large)).toBe(true);
    // 8 MiB chunks: two parts.
    expect((await storage.client().send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'public/boto3-large.bin' }))).ETag).toMatch(/-2"$/);
  });

  (hasAwsCli ? it : it.skip)('takes `aws s3 cp` up (multipart) and down byte for byte', async () => {
    const bytes = testBytes(9 * MIB + 77);
    writeFileSync(path.join(dir, 'cli.bin'), bytes);
    const cli = (...args: string[]) => run('aws', ['--endpoint-url', storage.endpoint, '--no-progress', 's3', 'cp', ...args], { env });
    await cli(path.join(dir, 'cli.bin'), `s3://${BUCKET}/public/cli.bin`);
    expect((await read('public/cli.bin')).equals(bytes)).toBe(true);
    await cli(`s3://${BUCKET}/public/cli.bin`, path.join(dir, 'cli-back.bin'));
    expect(readFileSync(path.join(dir, 'cli-back.bin')).equals(bytes)).toBe(true);
  });
});
