// `cdk synth` / `cdk deploy` (deploy/cdk.json): the product's stack. Synthesis needs no AWS account and makes
// no lookup: everything known only at deployment is a CloudFormation parameter.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { DiviloStack } from '../lib/stack';

const lambdaDir = path.resolve(__dirname, '../../dist-lambdas');
if (!existsSync(path.join(lambdaDir, 'preTokenGeneration.js'))) {
  console.error('dist-lambdas/preTokenGeneration.js is missing: run `npm run build:lambdas` at the repository root first.');
  process.exit(1);
}

const app = new App();
new DiviloStack(app, app.node.tryGetContext('stackName') ?? 'DiviloOnboarding', {
  lambdaDir,
  description: 'Divilo onboarding: identity, documents, PostgreSQL, Redis and the server containers',
});
