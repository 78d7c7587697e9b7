/** The GraphQL gateway's settings (spec 1 Limits, GraphQL rules 9 and playground; core/kernel/config/settings.ts). */
import { nodeEnv } from '../../kernel/config/platform-settings';
import { bool, int, settingsGroup } from '../../kernel/config/settings';

export const graphqlSettings = settingsGroup('http', {
  graphqlIntrospection: bool('GRAPHQL_INTROSPECTION', { default: false }, 'Allow GraphQL introspection in production (spec 1, GraphQL rule 9); tenants can also turn it on in their settings.'),
  graphql: {
    limits: {
      depth: int('GRAPHQL_LIMIT_DEPTH', { default: 7 }, 'Deepest GraphQL selection accepted (`graphql.limits.depth`).'),
      complexity: int('GRAPHQL_LIMIT_COMPLEXITY', { default: 1000 }, 'Highest complexity score accepted (`graphql.limits.complexity`).'),
      aliases: int('GRAPHQL_LIMIT_ALIASES', { default: 30 }, 'Most aliases per request (`graphql.limits.aliases`).'),
    },
    schemaCacheTtlSeconds: int('GRAPHQL_SCHEMA_CACHE_TTL', { default: 86_400 }, 'Seconds a per-ring merged schema stays cached (`graphql.schema_cache.ttl`).'),
    // A tenant setting can turn it on in production too.
    playground: bool('GRAPHQL_PLAYGROUND', { default: (get) => get(nodeEnv) !== 'production', shown: 'on outside production' }, 'Serve `GET /graphql/playground`.'),
  },
});
