/**
 * Configuration: every setting comes from one environment variable, declared beside the part that
 * owns it (core/kernel/config/settings.ts) and composed here into the `Config` the platform reads.
 * docs/reference/environment.md is generated from the same declarations (scripts/gen-env-reference.ts).
 */
import { accountSettings } from './services/accounts/config';
import { authSettings } from './kernel/auth/config';
import { catalogSettings } from './services/contributions/config';
import { clientReleaseSettings } from './services/client-releases/config';
import { databaseSettings, tenantPoolSettings } from './kernel/data/config';
import { driverSettings } from './kernel/drivers/config';
import { graphqlSettings } from './services/graphql/config';
import { httpSettings } from './kernel/http/config';
import { mailSettings } from './services/mail/config';
import { moduleSettings } from './kernel/modules/config';
import { notificationSettings } from './services/notifications/config';
import { partRef } from './kernel/parts';
import { platformSettings } from './kernel/config/platform-settings';
import { realtimeSettings } from './kernel/realtime/config';
import { keySettings } from './kernel/secrets/config';
import { readGroup, settingsReader, type Env, type SettingsGroup, type SettingsTree, type SettingsValues } from './kernel/config/settings';
import { tenancySettings } from './kernel/tenancy/config';
import { workflowSettings } from './services/workflows/config';

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

/** The config as a part (core/kernel/parts), handed to the platform ready-made (`givenPart`). */
export const configRef = partRef<Config>('config');
