// deploy/admin.sh, run as an operator runs it, with a stand-in `aws` first on PATH (the real one would need an AWS
// account): it records every call it gets and answers as the AWS CLI would. What is checked is the exact calls the
// script makes, in order, for an exec session and for a one-off task, and that it stops clearly before any of them
// when the stack lacks an output or an argument cannot pass.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SERVER_LOG_STREAM_PREFIX } from '../lib/stack';

const script = path.resolve(__dirname, '../admin.sh');

const OUTPUTS: Record<string, string> = {
  ServerCluster: 'DiviloOnboarding-ClusterEB0386A7-a1B2c3',
  ServerService: 'DiviloOnboarding-ServerServiceDC94C6DC-x9Y8z7',
  ServerTaskDefinition: 'arn:aws:ecs:eu-south-2:123456789012:task-definition/DiviloOnboardingServerTaskDef6A4B2C1D:7',
  ServerTaskFamily: 'DiviloOnboardingServerTaskDef6A4B2C1D',
  ServerContainer: 'web',
  AppSubnets: 'subnet-0aaa,subnet-0bbb',
  ServerSecurityGroupId: 'sg-0123',
  ServerLogGroup: 'DiviloOnboarding-ServerLogsD9948953-QwErTy',
  LoadBalancerDnsName: 'lb.example',
};
const TASK = 'arn:aws:ecs:eu-south-2:123456789012:task/DiviloOnboarding-ClusterEB0386A7-a1B2c3/0f1e2d3c4b5a';

/** What the stand-in answers to `<service> <operation>`: its stdout and exit code. */
type Answers = Record<string, { stdout?: string; code?: number }>;

const describeStacks = (outputs: Record<string, string>) => ({ stdout: `${Object.entries(outputs).map(([key, value]) => `${key}\t${value}`).join('\n')}\n` });

function run(args: string[], answers: Answers, env: Record<string, string> = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'admin-sh-'));
  try {
    writeFileSync(path.join(dir, 'answers.json'), JSON.stringify(answers));
    // The stand-in: records its arguments, one JSON array per line, and answers by service and operation.
    writeFileSync(
      path.join(dir, 'aws'),
      `#!${process.execPath}
const fs = require('node:fs');
const dir = ${JSON.stringify(dir)};
const args = process.argv.slice(2);
fs.appendFileSync(dir + '/calls', JSON.stringify(args) + '\\n');
const answer = JSON.parse(fs.readFileSync(dir + '/answers.json', 'utf8'))[args[0] + ' ' + args[1]] ?? {};
process.stdout.write(answer.stdout ?? '');
process.exit(answer.code ?? 0);
`,
    );
    writeFileSync(path.join(dir, 'session-manager-plugin'), '#!/bin/sh\nexit 0\n');
    chmodSync(path.join(dir, 'aws'), 0o755);
    chmodSync(path.join(dir, 'session-manager-plugin'), 0o755);
    const result = spawnSync('bash', [script, ...args], { encoding: 'utf8', env: { PATH: `${dir}:/usr/bin:/bin`, ...env } });
    let calls: string[][] = [];
    try {
      calls = readFileSync(path.join(dir, 'calls'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as string[]);
    } catch {
      calls = [];
    }
    return { code: result.status, stdout: result.stdout, stderr: result.stderr, calls };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const READ_OUTPUTS = ['cloudformation', 'describe-stacks', '--stack-name', 'DiviloOnboarding', '--query', 'Stacks[0].Outputs[].[OutputKey,OutputValue]', '--output', 'text'];

describe('deploy/admin.sh', () => {
  it('task: runs the admin as a one-off task of the servers, waits for it, prints its log lines and returns its exit code', () => {
    const result = run(['task', 'reject', 'app-1', '--reason', 'the deeds say "SL", the form "SA"', '--reviewer', 'Marta Ruiz'], {
      'cloudformation describe-stacks': describeStacks(OUTPUTS),
      'ecs run-task': { stdout: `${TASK}\tNone\n` },
      'ecs describe-tasks': { stdout: '3\tEssential container in task exited\n' },
      'logs filter-log-events': { stdout: 'Application app-1 is not in review.\nNothing was changed.\n' },
    });
    expect(result.calls).toEqual([
      READ_OUTPUTS,
      [
        'ecs', 'run-task',
        '--cluster', OUTPUTS.ServerCluster,
        '--task-definition', OUTPUTS.ServerTaskDefinition,
        '--launch-type', 'FARGATE',
        '--network-configuration', 'awsvpcConfiguration={subnets=[subnet-0aaa,subnet-0bbb],securityGroups=[sg-0123],assignPublicIp=DISABLED}',
        '--overrides', '{"containerOverrides":[{"name":"web","command":["admin","reject","app-1","--reason","the deeds say \\"SL\\", the form \\"SA\\"","--reviewer","Marta Ruiz"]}]}',
        '--started-by', 'admin',
        '--query', '[tasks[0].taskArn,failures[0].reason]', '--output', 'text',
      ],
      ['ecs', 'wait', 'tasks-stopped', '--cluster', OUTPUTS.ServerCluster, '--tasks', TASK],
      ['ecs', 'describe-tasks', '--cluster', OUTPUTS.ServerCluster, '--tasks', TASK, '--query', "tasks[0].[containers[?name=='web'].exitCode | [0], stoppedReason]", '--output', 'text'],
      ['logs', 'filter-log-events', '--log-group-name', OUTPUTS.ServerLogGroup, '--log-stream-names', `${SERVER_LOG_STREAM_PREFIX}/web/0f1e2d3c4b5a`, '--query', 'events[].[message]', '--output', 'text'],
    ]);
    // The command as the container receives it: the image's entrypoint runs `admin <arguments>` (docker/start.sh).
    const overrides = JSON.parse(result.calls[1][result.calls[1].indexOf('--overrides') + 1]) as { containerOverrides: { command: string[] }[] };
    expect(overrides.containerOverrides[0].command).toEqual(['admin', 'reject', 'app-1', '--reason', 'the deeds say "SL", the form "SA"', '--reviewer', 'Marta Ruiz']);
    expect(result.stdout).toBe('Application app-1 is not in review.\nNothing was changed.\n');
    expect(result.stderr).toBe('admin.sh: task 0f1e2d3c4b5a started; its output follows once it has stopped\n');
    expect(result.code).toBe(3);
  });

  it('task: says why a task did not start, or ended without running the admin, and fails', () => {
    const refused = run(['task', 'list'], { 'cloudformation describe-stacks': describeStacks(OUTPUTS), 'ecs run-task': { stdout: 'None\tRESOURCE:ENI\n' } });
    expect(refused.calls.map((call) => call.slice(0, 2).join(' '))).toEqual(['cloudformation describe-stacks', 'ecs run-task']);
    expect(refused.stderr).toBe('admin.sh: the task did not start: RESOURCE:ENI\n');
    expect(refused.code).toBe(1);

    const pulled = run(['task', 'list'], {
      'cloudformation describe-stacks': describeStacks(OUTPUTS),
      'ecs run-task': { stdout: `${TASK}\tNone\n` },
      'ecs describe-tasks': { stdout: 'None\tCannotPullContainerError: pull image manifest has been retried 5 time(s)\n' },
      'logs filter-log-events': { stdout: 'None\n' },
    });
    expect(pulled.stdout).toBe('');
    expect(pulled.stderr).toContain('admin.sh: task 0f1e2d3c4b5a ended without running the admin: CannotPullContainerError');
    expect(pulled.code).toBe(1);
  });

  it('exec: opens an interactive session into a running server that runs the admin through the image\'s start', () => {
    const result = run(['exec', 'staff', 'add', 'ana@bank.es', '--roles', 'administrator'], {
      'cloudformation describe-stacks': describeStacks(OUTPUTS),
      'ecs list-tasks': { stdout: `${TASK}\n` },
    });
    expect(result.calls).toEqual([
      READ_OUTPUTS,
      ['ecs', 'list-tasks', '--cluster', OUTPUTS.ServerCluster, '--service-name', OUTPUTS.ServerService, '--desired-status', 'RUNNING', '--query', 'taskArns[0]', '--output', 'text'],
      ['ecs', 'execute-command', '--cluster', OUTPUTS.ServerCluster, '--task', TASK, '--container', 'web', '--interactive', '--command', '/app/docker/start.sh admin staff add ana@bank.es --roles administrator'],
    ]);
    expect(result.code).toBe(0);

    // Alone: a shell in the container.
    const shell = run(['exec'], { 'cloudformation describe-stacks': describeStacks(OUTPUTS), 'ecs list-tasks': { stdout: `${TASK}\n` } });
    expect(shell.calls.at(-1)).toEqual(['ecs', 'execute-command', '--cluster', OUTPUTS.ServerCluster, '--task', TASK, '--container', 'web', '--interactive', '--command', '/bin/sh']);
  });

  it('exec: refuses an argument the command line cannot carry, and says so when no server runs', () => {
    const spaced = run(['exec', 'reject', 'app-1', '--reason', 'two words'], { 'cloudformation describe-stacks': describeStacks(OUTPUTS) });
    expect(spaced.calls).toEqual([READ_OUTPUTS]);
    expect(spaced.stderr).toContain('"two words" cannot pass through an exec session\'s command line');
    expect(spaced.code).toBe(2);

    const none = run(['exec', 'list'], { 'cloudformation describe-stacks': describeStacks(OUTPUTS), 'ecs list-tasks': { stdout: 'None\n' } });
    expect(none.calls.map((call) => call[1])).toEqual(['describe-stacks', 'list-tasks']);
    expect(none.stderr).toContain(`no server is running in ${OUTPUTS.ServerService}`);
    expect(none.code).toBe(2);
  });

  it('stops before any ECS call when the stack lacks an output it needs, naming it; reads the stack DIVILO_STACK names', () => {
    const { ServerTaskDefinition: _, ...older } = OUTPUTS;
    const missing = run(['task', 'list'], { 'cloudformation describe-stacks': describeStacks(older) }, { DIVILO_STACK: 'DiviloStaging' });
    expect(missing.calls).toEqual([READ_OUTPUTS.map((arg) => (arg === 'DiviloOnboarding' ? 'DiviloStaging' : arg))]);
    expect(missing.stderr).toBe('admin.sh: the stack DiviloStaging has no output ServerTaskDefinition: deploy this version of deploy/ first (npx cdk deploy)\n');
    expect(missing.code).toBe(2);

    // A stack of before these outputs: the CLI prints None for the missing list.
    const none = run(['exec', 'list'], { 'cloudformation describe-stacks': { stdout: 'None\n' } });
    expect(none.calls).toHaveLength(1);
    expect(none.stderr).toContain('has no output ServerCluster');
    expect(none.code).toBe(2);

    const unreadable = run(['task', 'list'], { 'cloudformation describe-stacks': { code: 254 } });
    expect(unreadable.calls).toHaveLength(1);
    expect(unreadable.stderr).toContain('the stack DiviloOnboarding cannot be read');
    expect(unreadable.code).toBe(2);
  });

  it('explains itself without arguments or with a mode it does not know, calling nothing', () => {
    for (const args of [[], ['shell'], ['task']]) {
      const result = run(args, {});
      expect(result.calls).toEqual([]);
      expect(result.stderr).toContain('usage: deploy/admin.sh exec');
      expect(result.code).toBe(2);
    }
  });

  const shellcheck = spawnSync('shellcheck', ['--version']).status === 0;
  (shellcheck ? it : it.skip)('is clean under shellcheck', () => {
    const checked = spawnSync('shellcheck', [script], { encoding: 'utf8' });
    expect(checked.stdout).toBe('');
    expect(checked.status).toBe(0);
  });
});
