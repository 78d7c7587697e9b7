import fs from 'node:fs';
import pino from 'pino';
import { loadConfig, settingsGroups } from '../../core/config';
import { platformParts } from '../../core/platform';
import { listSettings } from '../../core/kernel/config/settings';
import { ENV_REFERENCE, renderEnvReference } from '../../scripts/gen-env-reference';

describe('the settings declarations and the environment reference they generate', () => {
  it('docs/reference/environment.md holds the table the declarations generate', () => {
    const page = fs.readFileSync(ENV_REFERENCE, 'utf8');
    expect(page).toBe(renderEnvReference(page));
  });

  it('declares each variable once', () => {
    const names = settingsGroups.flatMap((g) => listSettings(g).map((s) => s.name));
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });

  it('gives each group an owner among the platform parts', () => {
    const parts = new Set(platformParts(loadConfig({}), pino({ level: 'silent' })).map((p) => p.ref.id));
    expect(settingsGroups.map((g) => g.part).filter((part) => !parts.has(part))).toEqual([]);
  });
});
