/** A pack of AI credit tokens sold for a one-time payment. */
export interface CreditPack {
  id: string;
  name: string;
  tokens: number;
  amountCents: number;
  /** Lower-case ISO 4217 (`usd`). */
  currency: string;
}

/** Sold when no packs are configured. */
export const DEFAULT_CREDIT_PACKS: readonly CreditPack[] = [
  { id: 'pack_5m', name: '5M AI tokens', tokens: 5_000_000, amountCents: 3_900, currency: 'usd' },
  { id: 'pack_10m', name: '10M AI tokens', tokens: 10_000_000, amountCents: 6_900, currency: 'usd' },
  { id: 'pack_25m', name: '25M AI tokens', tokens: 25_000_000, amountCents: 14_900, currency: 'usd' },
];
