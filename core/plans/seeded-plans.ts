import type { FeatureMap } from './feature-catalogue';

/**
 * The plans a new installation starts with (the first plans migration inserts the same rows).
 * Free is the default; the paid plans get their provider product id from an operator
 * (`PUT /plans/{id}`), which is what lets a subscription select them.
 */
export const SEEDED_PLANS: readonly { name: string; description: string; features: FeatureMap; isDefault: boolean }[] = [
  {
    name: 'Free',
    description: 'For trying things out',
    features: { max_notes: 10, max_projects: -1, token_limit: 0, enable_ai: false },
    isDefault: true,
  },
  {
    name: 'Professional',
    description: 'For working teams, with the AI copilot',
    features: { max_notes: 1000, max_projects: -1, token_limit: 2_000_000, enable_ai: true },
    isDefault: false,
  },
  {
    name: 'Premium',
    description: 'Unlimited notes and the largest AI allotment',
    features: { max_notes: -1, max_projects: -1, token_limit: 20_000_000, enable_ai: true },
    isDefault: false,
  },
];
