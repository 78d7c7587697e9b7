/** Client releases (spec 1): the platform default release channel that tenants inherit (core/kernel/config/settings.ts). */
import { int, optionalOneOf, optionalText, settingsGroup } from '../../kernel/config/settings';

export const clientReleaseSettings = settingsGroup('http', {
  cliReleases: {
    defaultAdapter: optionalOneOf('CLI_RELEASES_DEFAULT_ADAPTER', ['hosted_repo', 'static'] as const, 'Platform default release channel of the `mandi` CLI, inherited by every tenant without its own: `hosted_repo` or `static`. Unset: none (the CLI then uses its public mirror).'),
    repoProject: optionalText('CLI_RELEASES_REPO_PROJECT', '`hosted_repo`: project path or id on a GitLab-compatible host (release tags `cli/v<semver>`).'),
    repoApiUrl: optionalText('CLI_RELEASES_REPO_API_URL', "`hosted_repo`: the host's API base, e.g. `https://git.example.com/api/v4`."),
    repoToken: optionalText('CLI_RELEASES_REPO_TOKEN', '`hosted_repo`: read-scoped service token; downloads are streamed through the platform with it.'),
    staticManifestUrl: optionalText('CLI_RELEASES_STATIC_MANIFEST_URL', '`static`: HTTPS URL of a schema_version 1 manifest.'),
    cacheSeconds: int('CLI_RELEASES_CACHE_SECONDS', { default: 60 }, 'How long a fetched upstream release manifest is reused (`0`: every request fetches).'),
  },
});
