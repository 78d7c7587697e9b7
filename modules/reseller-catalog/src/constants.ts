/** Catalog configuration constants (spec 3, Reseller product pricing). */
export const CONSTANTS = {
  default_minimum_margin: 10,
  allow_zero_margin: false,
  max_chain_depth: 10,
  auto_inherit_pricing: true,
  default_auto_markup: 15,
} as const;

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;
