import type { Logger } from 'pino';
import type { EmailConfig } from '../config/config';
import type { Mailer } from '../../core/email/mailer.port';
import { StubMailer } from '../../adapters/email/stub-mailer';
import type { DevMailbox } from '../../adapters/email/dev-mailbox';

/**
 * APP_EMAIL_PROVIDER → the adapter; config.ts has already checked each provider's settings.
 * Provider SDKs are imported only when chosen: the AWS and Azure SDKs alone add about a second
 * to startup, which a `stub` or Postmark deployment should not pay. `devMailbox`: where the stub
 * also keeps each email (dev only).
 */
export async function createMailer(email: EmailConfig, logger: Logger, devMailbox?: DevMailbox): Promise<Mailer> {
  switch (email.provider) {
    case 'stub':
      return new StubMailer(logger, devMailbox);
    case 'postmark': {
      const { PostmarkMailer } = await import('../../adapters/email/postmark-mailer');
      return new PostmarkMailer({ serverToken: email.apiKey, senderAddress: email.senderAddress, senderName: email.senderName });
    }
    case 'ses': {
      const { SesMailer } = await import('../../adapters/email/ses-mailer');
      return new SesMailer({ region: email.region, senderAddress: email.senderAddress, senderName: email.senderName });
    }
    case 'azure': {
      const { AzureMailer } = await import('../../adapters/email/azure-mailer');
      return new AzureMailer({ connectionString: email.connectionString, senderAddress: email.senderAddress });
    }
  }
}
