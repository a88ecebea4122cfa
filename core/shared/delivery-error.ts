/**
 * The last error an outbox keeps for a delivery (an email, an overage report): the provider's
 * answer, which can be any size, cut to its first 2,000 characters. Enough for an operator to see
 * why; never a row that grows with whatever a provider sends back.
 */
export const MAX_DELIVERY_ERROR_LENGTH = 2_000;

export const keptDeliveryError = (error: string): string => error.slice(0, MAX_DELIVERY_ERROR_LENGTH);
