import { partition } from '@aws-sdk/core/client';
import { awsPartition, awsServiceOrigin } from '../../src/config/awsPartition';

// The endpoints the server names (CSP, token issuer) must be the ones the AWS SDK calls: the table is
// checked against the SDK's own partitions.
describe('AWS partitions', () => {
  it.each(['eu-west-1', 'eu-south-2', 'us-east-1', 'ap-southeast-5', 'mx-central-1', 'cn-north-1', 'cn-northwest-1', 'us-gov-west-1', 'us-gov-east-1', 'eusc-de-east-1', 'us-iso-east-1', 'us-isob-east-1'])(
    '%s has the partition and DNS suffix the SDK gives it',
    (region) => {
      const sdk = partition(region);
      expect(awsPartition(region)).toEqual({ id: sdk.name, dnsSuffix: sdk.dnsSuffix });
    },
  );

  it('knows no partition for names that are no region (the SDK would fall back to the commercial one)', () => {
    for (const name of ['mars-north-1', 'eu-west', 'Europe', 'local']) expect(awsPartition(name)).toBeUndefined();
  });

  it("writes a service's origin with its partition's suffix", () => {
    expect(awsServiceOrigin('cognito-idp', 'cn-north-1')).toBe('https://cognito-idp.cn-north-1.amazonaws.com.cn');
    expect(awsServiceOrigin('s3', 'us-gov-west-1')).toBe('https://s3.us-gov-west-1.amazonaws.com');
  });
});
