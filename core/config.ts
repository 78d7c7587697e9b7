/**
 * Configuration: every setting comes from one environment variable, declared beside the part that
 * owns it (core/settings.ts) and composed here into the `Config` the platform reads.
 * docs/reference/environment.md is generated from the same declarations (scripts/gen-env-reference.ts).
 */
import { accountSettings } from './accounts/config';
import { authSettings } from './auth/config';
import { catalogSettings } from './catalogs/config';
import { clientReleaseSettings } from './client-releases/config';
import { databaseSettings, tenantPoolSettings } from './data/config';
import { driverSettings } from './drivers/config';
import { graphqlSettings } from './graphql/config';
import { httpSettings } from './http/config';
import { mailSettings } from './mail/config';
import { moduleSettings } from './modules/config';
import { notificationSettings } from './notifications/config';
import { partRef } from './parts';
import { platformSettings } from './platform-settings';
import { realtimeSettings } from './realtime/config';
import { keySettings } from './secrets/config';
import { readGroup, settingsReader, type Env, type SettingsGroup, type SettingsTree, type SettingsValues } from './settings';
import { tenancySettings } from './tenancy/config';
import { workflowSettings } from './workflows/config';

/** Every group, in the reference's order. */
export const settingsGroups = [
  platformSettings,
  databaseSettings,
  driverSettings,
  httpSettings,
  tenantPoolSettings,
  authSettings,
  graphqlSettings,
  moduleSettings,
  realtimeSettings,
  catalogSettings,
  workflowSettings,
  notificationSettings,
  clientReleaseSettings,
  mailSettings,
  tenancySettings,
  accountSettings,
  keySettings,
] as const;

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

export type Config = UnionToIntersection<SettingsValues<(typeof settingsGroups)[number]['settings']>>;

export function loadConfig(env: Env = process.env): Config {
  const get = settingsReader(env);
  return Object.assign({}, ...settingsGroups.map((group: SettingsGroup<SettingsTree>) => readGroup(group, get))) as Config;
}

/** The config as a part (core/parts), handed to the platform ready-made (`givenPart`). */
export const configRef = partRef<Config>('config');
