import { DEFAULT_DELIVERY_POLICY, deliverDue, type DeliveryReport } from '../shared/leased-delivery';
import type { EmailDeps } from './email-deps';
import { MailDeliveryError } from './mailer.port';

export { DEFAULT_DELIVERY_POLICY, type DeliveryPolicy, type DeliveryReport } from '../shared/leased-delivery';

/**
 * Sends the emails that are due through the shared leased delivery (core/shared/leased-delivery.ts).
 * Transient failures (network, 429, 5xx) are retried with backoff; permanent ones (rejected
 * address, bad request) and emails out of attempts go to dead-letter, logged.
 */
export class DeliverDueEmails {
  constructor(private readonly deps: Pick<EmailDeps, 'store' | 'mailer' | 'clock' | 'logger' | 'random'> & Partial<Pick<EmailDeps, 'policy'>>) {}

  execute(): Promise<DeliveryReport> {
    const { store, mailer, clock, logger, random } = this.deps;
    return deliverDue({
      store,
      clock,
      logger,
      random,
      policy: this.deps.policy ?? DEFAULT_DELIVERY_POLICY,
      keyOf: (email) => email.id,
      send: (email) => mailer.send(email.message),
      kindOf: (failure) => (failure instanceof MailDeliveryError ? failure.kind : 'transient'),
      fieldsOf: (email) => ({ email_id: email.id, tag: email.message.tag }),
      messages: { sent: 'email sent', retried: 'email delivery failed, will retry', dead: 'email dead-lettered' },
      sentLevel: mailer.logsEachEmail ? 'debug' : 'info',
    });
  }
}
