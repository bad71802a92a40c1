/**
 * The AWS partitions a region can belong to, and the DNS suffix of each partition's service endpoints
 * (`cognito-idp.cn-north-1.amazonaws.com.cn` in China, `...amazonaws.com` elsewhere). The same table as the
 * AWS SDK's partitions (a test compares them), so that an endpoint the server names (the CSP, the token
 * issuer) is the one the SDK calls.
 */
interface AwsPartition {
  id: 'aws' | 'aws-cn' | 'aws-us-gov' | 'aws-eusc' | 'aws-iso' | 'aws-iso-b' | 'aws-iso-e' | 'aws-iso-f';
  dnsSuffix: string;
}

const PARTITIONS: readonly (AwsPartition & { regions: RegExp })[] = [
  { id: 'aws', regions: /^(us|eu|ap|sa|ca|me|af|il|mx)-[a-z]+-\d+$/, dnsSuffix: 'amazonaws.com' },
  { id: 'aws-cn', regions: /^cn-[a-z]+-\d+$/, dnsSuffix: 'amazonaws.com.cn' },
  { id: 'aws-us-gov', regions: /^us-gov-[a-z]+-\d+$/, dnsSuffix: 'amazonaws.com' },
  { id: 'aws-eusc', regions: /^eusc-de-[a-z]+-\d+$/, dnsSuffix: 'amazonaws.eu' },
  { id: 'aws-iso', regions: /^us-iso-[a-z]+-\d+$/, dnsSuffix: 'c2s.ic.gov' },
  { id: 'aws-iso-b', regions: /^us-isob-[a-z]+-\d+$/, dnsSuffix: 'sc2s.sgov.gov' },
  { id: 'aws-iso-e', regions: /^eu-isoe-[a-z]+-\d+$/, dnsSuffix: 'cloud.adc-e.uk' },
  { id: 'aws-iso-f', regions: /^us-isof-[a-z]+-\d+$/, dnsSuffix: 'csp.hci.ic.gov' },
];

/** The partition of `region`, or undefined when it is no AWS region's name. */
export function awsPartition(region: string): AwsPartition | undefined {
  const found = PARTITIONS.find((partition) => partition.regions.test(region));
  return found && { id: found.id, dnsSuffix: found.dnsSuffix };
}

/** `https://<service>.<region>.<the partition's suffix>`: where AWS answers a regional service. */
export function awsServiceOrigin(service: string, region: string): string {
  return `https://${service}.${region}.${awsPartition(region)?.dnsSuffix ?? 'amazonaws.com'}`;
}
