import { EntitySchema } from '@mikro-orm/core';
import { UserSchema, type UserEntity } from './accounts.entities';

export interface IdentityLinkEntity {
  id: number;
  user: UserEntity;
  issuer: string;
  subject: string;
  createdAt: Date;
}

/**
 * Which identity-provider account signs in as which user. `(issuer, subject)` is unique: one
 * provider identity, one local user. Deleting the user deletes their links.
 */
export const IdentityLinkSchema = new EntitySchema<IdentityLinkEntity>({
  name: 'IdentityLink',
  tableName: 'identity_link',
  uniques: [{ name: 'identity_link_issuer_subject_unique', properties: ['issuer', 'subject'] }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    // Serves the cascade from app_user and the listing of a user's links.
    user: { kind: 'm:1', entity: () => UserSchema, updateRule: 'cascade', deleteRule: 'cascade', index: true },
    issuer: { type: 'string', length: 500 },
    // OpenID Connect Core §2: at most 255 ASCII characters.
    subject: { type: 'string', length: 255 },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

export interface IdpLoginFlowEntity {
  id: number;
  flowKeyHash: string;
  codeVerifier: string;
  nonce: string;
  expiresAt: Date;
  consumedAt?: Date;
  createdAt: Date;
}

/**
 * Identity-provider sign-ins between redirect and callback: the PKCE verifier and the nonce stay
 * here, never in a URL. Keyed by the SHA-256 of the flow key carried in the signed state;
 * consumed once; deleted after expiry.
 */
export const IdpLoginFlowSchema = new EntitySchema<IdpLoginFlowEntity>({
  name: 'IdpLoginFlow',
  tableName: 'idp_login_flow',
  properties: {
    id: { type: 'bigint', primary: true, autoincrement: true },
    flowKeyHash: { type: 'string', length: 64, unique: true },
    // RFC 7636: 43 to 128 characters.
    codeVerifier: { type: 'string', length: 128 },
    nonce: { type: 'string', length: 255 },
    // Serves the pruning of expired flows.
    expiresAt: { type: 'Date', columnType: 'timestamptz', index: true },
    consumedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
