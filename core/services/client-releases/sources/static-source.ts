/**
 * adapter `static`: a schema_version 1 manifest at an HTTPS URL. Relative asset URLs are resolved
 * against the manifest's URL, so a manifest can sit next to its archives.
 */
import { ManifestFormatError, parseManifest, type ReleaseManifest } from '../../../../sdk/cli/upgrade/release-manifest';
import type { OutboundPolicy } from '../../../kernel/net/outbound-policy';
import { ReleaseSourceError, upstreamJson } from './upstream';

export async function loadManifestAt(manifestUrl: string, policy: OutboundPolicy): Promise<ReleaseManifest> {
  const { body, res } = await upstreamJson(manifestUrl, { policy });
  let manifest: ReleaseManifest;
  try {
    manifest = parseManifest(body).manifest;
  } catch (err) {
    if (err instanceof ManifestFormatError) throw new ReleaseSourceError(`the manifest is unusable: ${err.message}`);
    throw err;
  }
  for (const release of manifest.releases) {
    for (const asset of release.assets) asset.url = new URL(asset.url, res.url).href;
  }
  return manifest;
}
