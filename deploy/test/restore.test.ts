// The import of docs/deploy.md's restore, from the stack's own synthesized template: which resources a deletion
// keeps, the import template (nothing in it refers to what the import does not bring), and each resource's import
// identifier from the deleted stack's resources as `aws cloudformation list-stack-resources` lists them.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { type DeletedResource, importTemplate, keptResources, resourcesToImport, type Template } from '../lib/restore';
import { DiviloStack } from '../lib/stack';
import { STAFF_ROLES } from '../../server/staffRoles';

const root = path.resolve(__dirname, '../..');
let template: Template;

beforeAll(() => {
  execFileSync('npm', ['run', '--silent', 'build:lambdas'], { cwd: root, stdio: 'pipe' });
  const app = new App();
  const stack = new DiviloStack(app, 'DiviloOnboarding', { lambdaDir: path.join(root, 'dist-lambdas') });
  template = app.synth().getStackByName(stack.stackName).template as Template;
});

const idOf = (type: string, part: string) => {
  const ids = Object.keys(template.Resources).filter((id) => template.Resources[id].Type === type && id.includes(part));
  expect(ids).toHaveLength(1);
  return ids[0];
};

/** The deleted stack as list-stack-resources answers for it: what it kept skipped, the rest deleted. */
function deletedStack(): DeletedResource[] {
  const kept = new Set(keptResources(template));
  return Object.entries(template.Resources).map(([id, resource]) => ({
    LogicalResourceId: id,
    ResourceType: resource.Type,
    ResourceStatus: kept.has(id) ? 'DELETE_SKIPPED' : 'DELETE_COMPLETE',
    PhysicalResourceId: `physical-${id}`,
  }));
}

/** Every resource, parameter or condition a value refers to. */
const referred = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.flatMap(referred)
    : value && typeof value === 'object'
      ? Object.entries(value).flatMap(([key, item]) =>
          key === 'Ref' ? [String(item)] : key === 'Fn::GetAtt' ? [String((item as string[])[0])] : key === 'Fn::If' ? ['Fn::If'] : referred(item),
        )
      : [];

describe('the restore after the stack was deleted', () => {
  it('imports what a deletion keeps: the pools and groups, the identity pool, the buckets, every secret, the log groups, the key; not the database', () => {
    const kept = keptResources(template).map((id) => template.Resources[id].Type);
    const count = (type: string) => kept.filter((each) => each === type).length;
    expect(count('AWS::SecretsManager::Secret')).toBe(Object.values(template.Resources).filter((resource) => resource.Type === 'AWS::SecretsManager::Secret').length);
    expect({ pools: count('AWS::Cognito::UserPool'), groups: count('AWS::Cognito::UserPoolGroup'), identityPools: count('AWS::Cognito::IdentityPool'), buckets: count('AWS::S3::Bucket') }).toEqual({
      pools: 2,
      groups: STAFF_ROLES.length,
      identityPools: 1,
      buckets: 2,
    });
    expect(new Set(kept)).toEqual(
      new Set(['AWS::Cognito::UserPool', 'AWS::Cognito::UserPoolGroup', 'AWS::Cognito::IdentityPool', 'AWS::S3::Bucket', 'AWS::SecretsManager::Secret', 'AWS::Logs::LogGroup', 'AWS::KMS::Key']),
    );
    // The database comes back from its snapshot instead (docs/deploy.md).
    expect(keptResources(template)).not.toContain(idOf('AWS::RDS::DBInstance', 'Database'));
  });

  it('writes an import template of the kept resources alone, leaving out only the properties that refer to anything else', () => {
    const { template: imported, leftOut } = importTemplate(template);
    expect(Object.keys(imported).sort()).toEqual(['Resources']);
    expect(Object.keys(imported.Resources).sort()).toEqual(keptResources(template).sort());
    for (const [id, resource] of Object.entries(imported.Resources)) {
      expect({ id, policy: resource.DeletionPolicy }).toEqual({ id, policy: 'Retain' });
      const dangling = referred(resource).filter((name) => !name.startsWith('AWS::') && !(name in imported.Resources));
      expect({ id, dangling }).toEqual({ id, dangling: [] });
    }
    // The deployment after the import sets these again: the pool's trigger (the new Lambda), the bucket's CORS (PublicUrl).
    expect(leftOut.sort()).toEqual([`${idOf('AWS::S3::Bucket', 'Documents')}.CorsConfiguration`, `${idOf('AWS::Cognito::UserPool', 'Customers')}.LambdaConfig`].sort());
    // What stays describes the resource as the stack makes it (the groups on their kept pool).
    const group = imported.Resources[idOf('AWS::Cognito::UserPoolGroup', 'administrator')];
    expect(group.Properties).toMatchObject({ GroupName: 'administrator', UserPoolId: { Ref: idOf('AWS::Cognito::UserPool', 'Staff') } });
  });

  it("names each kept resource by its import identifier, from the deleted stack's physical ids", () => {
    const toImport = resourcesToImport(template, deletedStack());
    expect(toImport.map((resource) => resource.LogicalResourceId).sort()).toEqual(keptResources(template).sort());
    const byId = new Map(toImport.map((resource) => [resource.LogicalResourceId, resource]));
    const staffPool = idOf('AWS::Cognito::UserPool', 'Staff');
    const serverSecret = idOf('AWS::SecretsManager::Secret', 'ServerSecret');
    const bucket = idOf('AWS::S3::Bucket', 'Documents');
    expect(byId.get(serverSecret)).toEqual({ ResourceType: 'AWS::SecretsManager::Secret', LogicalResourceId: serverSecret, ResourceIdentifier: { Id: `physical-${serverSecret}` } });
    expect(byId.get(bucket)?.ResourceIdentifier).toEqual({ BucketName: `physical-${bucket}` });
    expect(byId.get(staffPool)?.ResourceIdentifier).toEqual({ UserPoolId: `physical-${staffPool}` });
    expect(byId.get(idOf('AWS::Cognito::IdentityPool', 'Storage'))?.ResourceIdentifier).toEqual({ Id: `physical-${idOf('AWS::Cognito::IdentityPool', 'Storage')}` });
    expect(byId.get(idOf('AWS::Cognito::UserPoolGroup', 'reviewer'))?.ResourceIdentifier).toEqual({ UserPoolId: `physical-${staffPool}`, GroupName: 'reviewer' });
    expect(byId.get(idOf('AWS::KMS::Key', 'ExecSessions'))?.ResourceIdentifier).toEqual({ KeyId: `physical-${idOf('AWS::KMS::Key', 'ExecSessions')}` });
    expect(byId.get(idOf('AWS::Logs::LogGroup', 'ServerLogs'))?.ResourceIdentifier).toEqual({ LogGroupName: `physical-${idOf('AWS::Logs::LogGroup', 'ServerLogs')}` });
  });

  it('stops when the deleted stack did not keep one of them, unless it is named to be made new', () => {
    const key = idOf('AWS::KMS::Key', 'ExecSessions');
    const serverSecret = idOf('AWS::SecretsManager::Secret', 'ServerSecret');
    // A stack of an older version: no exec key, and its secrets deleted with it.
    const older = deletedStack()
      .filter((resource) => resource.LogicalResourceId !== key)
      .map((resource) => (resource.LogicalResourceId === serverSecret ? { ...resource, ResourceStatus: 'DELETE_COMPLETE' } : resource));
    expect(() => resourcesToImport(template, older)).toThrow(`the deleted stack kept none of ${serverSecret}, ${key}`);
    const withNewKey = resourcesToImport(template, deletedStack().filter((resource) => resource.LogicalResourceId !== key), [key]);
    expect(withNewKey.map((resource) => resource.LogicalResourceId)).not.toContain(key);
  });

  it('bin/restore.ts writes both files for create-change-set, and fails saying what is missing', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'restore-'));
    try {
      writeFileSync(path.join(dir, 'template.json'), JSON.stringify(template));
      writeFileSync(path.join(dir, 'deleted.json'), JSON.stringify({ StackResourceSummaries: deletedStack() }));
      const tsx = path.join(root, 'deploy/node_modules/.bin/tsx');
      const run = (deleted: string) => spawnSync(tsx, [path.join(root, 'deploy/bin/restore.ts'), path.join(dir, 'template.json'), path.join(dir, deleted), path.join(dir, 'out')], { encoding: 'utf8' });
      const done = run('deleted.json');
      expect(done.status).toBe(0);
      expect(done.stdout).toContain(`${keptResources(template).length} resources to import`);
      const written = JSON.parse(readFileSync(path.join(dir, 'out/resources-to-import.json'), 'utf8')) as unknown[];
      expect(written).toEqual(resourcesToImport(template, deletedStack()));
      expect(JSON.parse(readFileSync(path.join(dir, 'out/import-template.json'), 'utf8'))).toEqual(importTemplate(template).template);

      writeFileSync(path.join(dir, 'none.json'), JSON.stringify({ StackResourceSummaries: [] }));
      const failed = run('none.json');
      expect(failed.status).toBe(1);
      expect(failed.stderr).toMatch(/^restore: the deleted stack kept none of /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
