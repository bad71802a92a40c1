// The import of docs/deploy.md's restore, written out from the synthesized template and the deleted stack's
// resources:
//   npx tsx bin/restore.ts cdk.out/DiviloOnboarding.template.json deleted-resources.json restore [--new Id,Id]
// where deleted-resources.json is `aws cloudformation list-stack-resources --stack-name <the deleted stack's id>`.
// Writes <out>/import-template.json and <out>/resources-to-import.json for `aws cloudformation create-change-set
// --change-set-type IMPORT`, and says which properties the deployment after the import sets again.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type DeletedResource, importTemplate, keptResources, resourcesToImport, type Template } from '../lib/restore';

const [templateFile, deletedFile, outDir, ...options] = process.argv.slice(2);
if (!templateFile || !deletedFile || !outDir) {
  console.error('usage: npx tsx bin/restore.ts <synthesized template> <list-stack-resources output> <out folder> [--new LogicalId,LogicalId]');
  process.exit(2);
}
const created = options[0] === '--new' ? (options[1] ?? '').split(',').filter(Boolean) : [];

const template = JSON.parse(readFileSync(templateFile, 'utf8')) as Template;
const deleted = (JSON.parse(readFileSync(deletedFile, 'utf8')) as { StackResourceSummaries: DeletedResource[] }).StackResourceSummaries;
try {
  const toImport = resourcesToImport(template, deleted, created);
  const imported = importTemplate(template, keptResources(template).filter((id) => !created.includes(id)));
  mkdirSync(outDir, { recursive: true });
  writeFileSync(path.join(outDir, 'import-template.json'), `${JSON.stringify(imported.template, null, 2)}\n`);
  writeFileSync(path.join(outDir, 'resources-to-import.json'), `${JSON.stringify(toImport, null, 2)}\n`);
  const lines = [
    `${toImport.length} resources to import, written to ${outDir}/:`,
    ...toImport.map((resource) => `  ${resource.LogicalResourceId} (${resource.ResourceType}) ${Object.values(resource.ResourceIdentifier).join(' ')}`),
    `Set again by the deployment after the import: ${imported.leftOut.join(', ') || 'nothing'}.`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
} catch (error) {
  console.error(`restore: ${(error as Error).message}`);
  process.exit(1);
}
