/**
 * adapter `bucket`: the manifest is a public-read object in an S3-style bucket. Without `endpoint`
 * the AWS address is used (virtual-hosted style; path style for bucket names with dots, which do not
 * match the wildcard certificate); with `endpoint` (an S3-compatible store), path style on it.
 */
import type { ReleaseManifest } from '../../../../sdk/cli/upgrade/release-manifest';
import type { OutboundPolicy } from '../../../kernel/net/outbound-policy';
import { loadManifestAt } from './static-source';

export interface BucketConfig {
  bucket: string;
  region: string;
  manifest_key: string;
  endpoint?: string;
}

export function objectUrl(c: BucketConfig, key: string): string {
  const path = key.split('/').map(encodeURIComponent).join('/');
  if (c.endpoint) return `${c.endpoint}/${c.bucket}/${path}`;
  if (c.bucket.includes('.')) return `https://s3.${c.region}.amazonaws.com/${c.bucket}/${path}`;
  return `https://${c.bucket}.s3.${c.region}.amazonaws.com/${path}`;
}

export function loadBucketManifest(c: BucketConfig, policy: OutboundPolicy): Promise<ReleaseManifest> {
  return loadManifestAt(objectUrl(c, c.manifest_key), policy);
}
