// A stack made again after the old one was deleted, on what the deletion kept (docs/deploy.md, "Restore"): the
// resources whose deletion policy is Retain (the pools and the staff's groups, the identity pool, the buckets, every
// secret, the log groups, the exec sessions' key) are brought into the new stack by a CloudFormation import, under
// the logical ids the template gives them; a `cdk deploy` then makes the rest and sets what the import left out.

export interface TemplateResource {
  Type: string;
  Properties?: Record<string, unknown>;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
  DependsOn?: string | string[];
  Metadata?: unknown;
  Condition?: string;
}

export interface Template {
  Resources: Record<string, TemplateResource>;
}

/** A resource of the deleted stack, as `aws cloudformation list-stack-resources` lists it (`StackResourceSummaries`). */
export interface DeletedResource {
  LogicalResourceId: string;
  PhysicalResourceId?: string;
  ResourceType: string;
  ResourceStatus: string;
}

/** One entry of `create-change-set --resources-to-import`. */
export interface ResourceToImport {
  ResourceType: string;
  LogicalResourceId: string;
  ResourceIdentifier: Record<string, string>;
}

/** The logical ids of the resources a deletion of the stack keeps. */
export const keptResources = (template: Template): string[] =>
  Object.keys(template.Resources).filter((id) => template.Resources[id].DeletionPolicy === 'Retain');

/** The resources and parameters a value refers to (`Ref`, `Fn::GetAtt`, `Fn::Sub`'s `${…}`), and the conditions (`Fn::If`). */
function references(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((item) => references(item, found));
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === 'Ref' && typeof item === 'string') found.add(item);
      else if (key === 'Fn::GetAtt') found.add(Array.isArray(item) ? String(item[0]) : String(item).split('.')[0]);
      else if (key === 'Fn::If' && Array.isArray(item)) found.add(`condition:${String(item[0])}`);
      else if (key === 'Fn::Sub') {
        const text = Array.isArray(item) ? String(item[0]) : String(item);
        for (const [, name] of text.matchAll(/\$\{([^}!.]+)[^}]*\}/g)) found.add(name);
        references(Array.isArray(item) ? item[1] : undefined, found);
      } else references(item, found);
    }
  }
  return found;
}

/**
 * The template of the import: only the kept resources, each without the properties that refer to anything the
 * import does not bring (another resource, a parameter, a condition): a property left out is the deployment's to
 * set afterwards (the customers' pool's Lambda trigger, the bucket's CORS origin). Answers which were left out.
 */
export function importTemplate(template: Template, only: string[] = keptResources(template)): { template: Template; leftOut: string[] } {
  const kept = new Set(only);
  const brought = (name: string) => kept.has(name) || name.startsWith('AWS::');
  const leftOut: string[] = [];
  const Resources: Record<string, TemplateResource> = {};
  for (const id of only) {
    const { Type, Properties = {}, DeletionPolicy, UpdateReplacePolicy, DependsOn } = template.Resources[id];
    const properties = Object.fromEntries(
      Object.entries(Properties).filter(([name, value]) => {
        const fits = [...references(value)].every(brought);
        if (!fits) leftOut.push(`${id}.${name}`);
        return fits;
      }),
    );
    const dependsOn = ([] as string[]).concat(DependsOn ?? []).filter((name) => kept.has(name));
    Resources[id] = { Type, Properties: properties, DeletionPolicy, ...(UpdateReplacePolicy ? { UpdateReplacePolicy } : {}), ...(dependsOn.length ? { DependsOn: dependsOn } : {}) };
  }
  return { template: { Resources }, leftOut };
}

/**
 * Each kept resource's import identifier, from the deleted stack's resources: those the deletion skipped
 * (`DELETE_SKIPPED`) are the kept ones, with their physical ids. `created` names kept resources the deleted stack
 * did not have (it was of an older version): they are made new by the deployment instead. Anything else missing
 * stops the restore: a new secret, pool or bucket in place of a kept one would lose what the old one held.
 */
export function resourcesToImport(template: Template, deleted: DeletedResource[], created: string[] = []): ResourceToImport[] {
  const physical = new Map(deleted.filter((resource) => resource.ResourceStatus === 'DELETE_SKIPPED').map((resource) => [resource.LogicalResourceId, resource]));
  const kept = keptResources(template).filter((id) => !created.includes(id));
  const missing = kept.filter((id) => !physical.has(id) || physical.get(id)!.ResourceType !== template.Resources[id].Type);
  if (missing.length > 0) {
    throw new Error(`the deleted stack kept none of ${missing.join(', ')}: if it was of a version without them, name them with --new to have them made anew`);
  }
  const idOf = (id: string) => physical.get(id)!.PhysicalResourceId!;
  return kept.map((id) => {
    const { Type, Properties = {} } = template.Resources[id];
    return { ResourceType: Type, LogicalResourceId: id, ResourceIdentifier: identifier(Type, idOf(id), Properties, idOf) };
  });
}

/** The properties CloudFormation identifies an imported resource by (each type's primaryIdentifier). */
function identifier(type: string, physicalId: string, properties: Record<string, unknown>, idOf: (logicalId: string) => string): Record<string, string> {
  switch (type) {
    case 'AWS::S3::Bucket':
      return { BucketName: physicalId };
    case 'AWS::SecretsManager::Secret':
      return { Id: physicalId };
    case 'AWS::Cognito::UserPool':
      return { UserPoolId: physicalId };
    case 'AWS::Cognito::IdentityPool':
      return { Id: physicalId };
    case 'AWS::Cognito::UserPoolGroup':
      // Named in the template; its pool is the kept pool it refers to.
      return { UserPoolId: idOf((properties.UserPoolId as { Ref: string }).Ref), GroupName: properties.GroupName as string };
    case 'AWS::Logs::LogGroup':
      return { LogGroupName: physicalId };
    case 'AWS::KMS::Key':
      return { KeyId: physicalId };
    default:
      throw new Error(`no import identifier is known for ${type}: add it to deploy/lib/restore.ts`);
  }
}
