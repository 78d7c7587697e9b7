/**
 * What this build of the `mandi` CLI is. A release build (the single executable made by
 * build-executable.ts) has its version, kind and public mirror written in by esbuild's `define`; run
 * from source (`npm run mandi`) it is a development build, which never checks for upgrades (spec 1,
 * Client releases rule 4) and never replaces itself.
 */
declare const __MANDI_CLI_VERSION__: string | undefined;
declare const __MANDI_CLI_BUILD__: string | undefined;
declare const __MANDI_MIRROR_URL__: string | undefined;

export const CLI_VERSION: string = typeof __MANDI_CLI_VERSION__ === 'string' ? __MANDI_CLI_VERSION__ : '0.0.0-development';

export const IS_RELEASE_BUILD: boolean = typeof __MANDI_CLI_BUILD__ === 'string' && __MANDI_CLI_BUILD__ === 'release';

/**
 * The public mirror: the release manifest used when no platform is configured or the platform lacks
 * GET /cli/releases. MANDI_RELEASES_MIRROR_URL overrides it (tests, air-gapped installs).
 */
export const DEFAULT_MIRROR_URL: string = typeof __MANDI_MIRROR_URL__ === 'string' ? __MANDI_MIRROR_URL__ : 'https://releases.mandi.dev/cli/stable/manifest.json';
