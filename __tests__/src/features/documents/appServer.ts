// The whole server in a process of its own for the browser-side tests (jsdom cannot host it), with an IPC
// channel for what the test must arrange or look at: onboarding tokens and the recorded documents.
import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { startLoginServer } from '../../../server/login/loginServer';

async function main() {
  const server = await startLoginServer(JSON.parse(process.env.APP_ENV ?? '{}') as Record<string, string>);
  const { base } = server;
  // Each name the tests use is a real application (created on first use), as registration leaves it.
  const ids = new Map<string, string>();
  const applicationNamed = async (name: string) => {
    if (!ids.has(name)) {
      const created = await server.app.applications.create({ email: `${name}@example.com`, idDocument: name, answers: {}, completedSteps: ['signUp', 'reg-code'], language: 'es' }, new Date());
      ids.set(name, created.id);
    }
    return ids.get(name)!;
  };
  process.on('message', async (message: { id: number; call: 'issueToken' | 'listDocuments' | 'fillStorage' | 'storedFiles' | 'storageAwayOnce' | 'close'; applicationId?: string; bytes?: number }) => {
    let result: unknown;
    if (message.call === 'issueToken') result = await server.app.onboardingTokens.issue(await applicationNamed(message.applicationId!));
    if (message.call === 'listDocuments') result = await server.app.onboardingDocuments.list(await applicationNamed(message.applicationId!));
    if (message.call === 'fillStorage') {
      // An earlier file of `bytes` in the application's area, stored with the server's credentials (no quota).
      const { identityId } = await server.app.documents.storageIdentity(await applicationNamed(message.applicationId!));
      const { client, bucket } = server.app.documents.storage;
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: `private/${identityId}/model036/earlier.pdf`, Body: Buffer.alloc(message.bytes!) }));
    }
    if (message.call === 'storedFiles') {
      // What the application's area holds, whether reported or not.
      const { identityId } = await server.app.documents.storageIdentity(await applicationNamed(message.applicationId!));
      const { client, bucket } = server.app.documents.storage;
      result = ((await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `private/${identityId}/` }))).Contents ?? []).map((object) => object.Key);
    }
    if (message.call === 'storageAwayOnce') {
      // The embedded storage cannot be stopped apart from the server: its next check fails as an unreachable bucket would.
      const documents = server.app.documents;
      const check = documents.check;
      documents.check = async () => {
        documents.check = check;
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
      };
    }
    if (message.call === 'close') await server.close();
    process.send!({ id: message.id, result });
    if (message.call === 'close') process.exit(0);
  });
  process.send!({ ready: { base, storage: { region: server.config.storage.region, bucket: server.config.storage.bucket } } });
}

void main();
