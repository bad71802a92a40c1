#!/usr/bin/env bash
# The admin (`npm run admin`: the review, decisions, staff accounts) on AWS, in the deployed servers' image with
# their role, network and secrets:
#   deploy/admin.sh exec [<args>...]  an ECS Exec session into a running server, interactive; the session is
#                                     recorded (docs/deploy.md, "The admin on AWS"). No arguments: a shell there.
#   deploy/admin.sh task <args>...    a one-off task of the servers' task definition; once it has stopped, its
#                                     output is printed from the servers' log group and its exit code returned.
# What to reach is read from the stack's outputs (aws cloudformation describe-stacks); the stack is DIVILO_STACK
# (default DiviloOnboarding), the region and credentials the AWS CLI's own (AWS_REGION, AWS_PROFILE).
set -euo pipefail

stack="${DIVILO_STACK:-DiviloOnboarding}"
# The image's program for the admin (docker/start.sh sets up the environment, then runs it).
start=/app/docker/start.sh
# The awslogs stream prefix of the servers' containers (deploy/lib/stack.ts, SERVER_LOG_STREAM_PREFIX).
log_stream_prefix=server

fail() {
  printf 'admin.sh: %s\n' "$*" >&2
  exit 2
}

usage() {
  fail "usage: deploy/admin.sh exec [<admin arguments>...] | deploy/admin.sh task <admin arguments>...
  e.g. deploy/admin.sh exec staff add ana@bank.es --roles administrator
       deploy/admin.sh task list"
}

[ $# -ge 1 ] || usage
mode=$1
shift
case "$mode" in
  exec) ;;
  task) [ $# -ge 1 ] || usage ;;
  *) usage ;;
esac
for arg in "$@"; do
  case "$arg" in
    *[[:cntrl:]]*) fail "an argument holds a control character (a line break, a tab): write it without" ;;
  esac
done
command -v aws >/dev/null || fail "the AWS CLI (aws) is not installed"

outputs=$(aws cloudformation describe-stacks --stack-name "$stack" --query 'Stacks[0].Outputs[].[OutputKey,OutputValue]' --output text) ||
  fail "the stack $stack cannot be read (DIVILO_STACK names another; the AWS CLI's region and credentials are used)"

# The value of one of the stack's outputs; stops when the stack has none of that name.
output() {
  local value
  value=$(printf '%s\n' "$outputs" | awk -F '\t' -v key="$1" '$1 == key { print $2 }')
  [ -n "$value" ] || fail "the stack $stack has no output $1: deploy this version of deploy/ first (npx cdk deploy)"
  printf '%s' "$value"
}

# A JSON string of $1 (control characters were refused above).
json() {
  local text=$1
  text=${text//\\/\\\\}
  text=${text//\"/\\\"}
  printf '"%s"' "$text"
}

cluster=$(output ServerCluster)
container=$(output ServerContainer)

if [ "$mode" = exec ]; then
  service=$(output ServerService)
  command -v session-manager-plugin >/dev/null ||
    fail "ECS Exec needs the AWS CLI's Session Manager plugin (session-manager-plugin), which is not installed"
  # ECS Exec hands the container one command line, split at spaces: no quoting can pass an argument with a
  # space or a quote. Such an argument needs the shell (deploy/admin.sh exec alone) or a task.
  for arg in "$@"; do
    case "$arg" in
      *[!A-Za-z0-9@._,:=+/%-]*) fail "\"$arg\" cannot pass through an exec session's command line: run deploy/admin.sh exec alone for a shell there ($start admin …), or deploy/admin.sh task …" ;;
    esac
  done
  task=$(aws ecs list-tasks --cluster "$cluster" --service-name "$service" --desired-status RUNNING --query 'taskArns[0]' --output text)
  if [ -z "$task" ] || [ "$task" = None ]; then fail "no server is running in $service (ServerCount 0?): deploy/admin.sh task … runs without one"; fi
  if [ $# -eq 0 ]; then command=/bin/sh; else command="$start admin $*"; fi
  exec aws ecs execute-command --cluster "$cluster" --task "$task" --container "$container" --interactive --command "$command"
fi

definition=$(output ServerTaskDefinition)
subnets=$(output AppSubnets)
security_group=$(output ServerSecurityGroupId)
log_group=$(output ServerLogGroup)

arguments=$(json admin)
for arg in "$@"; do arguments="$arguments,$(json "$arg")"; done
overrides="{\"containerOverrides\":[{\"name\":$(json "$container"),\"command\":[$arguments]}]}"
network="awsvpcConfiguration={subnets=[$subnets],securityGroups=[$security_group],assignPublicIp=DISABLED}"

started=$(aws ecs run-task --cluster "$cluster" --task-definition "$definition" --launch-type FARGATE \
  --network-configuration "$network" --overrides "$overrides" --started-by admin \
  --query '[tasks[0].taskArn,failures[0].reason]' --output text)
task=$(printf '%s' "$started" | cut -f1)
if [ -z "$task" ] || [ "$task" = None ]; then
  printf 'admin.sh: the task did not start: %s\n' "$(printf '%s' "$started" | cut -f2)" >&2
  exit 1
fi
id=${task##*/}
printf 'admin.sh: task %s started; its output follows once it has stopped\n' "$id" >&2
aws ecs wait tasks-stopped --cluster "$cluster" --tasks "$task" ||
  fail "task $id has not stopped yet (or the wait failed): aws logs tail $log_group --log-stream-names $log_stream_prefix/$container/$id --follow"

stopped=$(aws ecs describe-tasks --cluster "$cluster" --tasks "$task" \
  --query "tasks[0].[containers[?name=='$container'].exitCode | [0], stoppedReason]" --output text)
exit_code=$(printf '%s' "$stopped" | cut -f1)

printed=$(aws logs filter-log-events --log-group-name "$log_group" --log-stream-names "$log_stream_prefix/$container/$id" \
  --query 'events[].[message]' --output text)
[ -z "$printed" ] || [ "$printed" = None ] || printf '%s\n' "$printed"

case "$exit_code" in
  '' | None | *[!0-9]*)
    printf 'admin.sh: task %s ended without running the admin: %s\n' "$id" "$(printf '%s' "$stopped" | cut -f2)" >&2
    exit 1
    ;;
esac
exit "$exit_code"
