/**
 * The files a manifest names besides its bundle (GraphQL schema and resolvers, static screens, SQL
 * migrations), each with the pointer that names it: loadManifest checks them on disk and readPackage
 * inside the package.
 */
import { childPointer } from './issues';
import type { Manifest } from './manifest.types';

export interface FileReference {
  pointer: string;
  path: string;
}

export function referencedFiles(manifest: Manifest): FileReference[] {
  const refs: FileReference[] = [];
  const add = (pointer: string, path: string | undefined) => {
    if (path) refs.push({ pointer, path });
  };
  add('/graphql/schema', manifest.graphql?.schema);
  add('/graphql/resolvers', manifest.graphql?.resolvers);
  manifest.graphql?.providers?.forEach((provider, i) => {
    add(`/graphql/providers/${i}/schema`, provider.schema);
    add(`/graphql/providers/${i}/resolvers`, provider.resolvers);
  });
  for (const [id, provider] of Object.entries(manifest.mobile?.screenProviders ?? {})) {
    add(`${childPointer('/mobile/screenProviders', id)}/file`, provider.file);
  }
  manifest.data?.migrations?.forEach((migration, i) => {
    add(`/data/migrations/${i}/up`, migration.up);
    add(`/data/migrations/${i}/down`, migration.down);
  });
  return refs;
}
