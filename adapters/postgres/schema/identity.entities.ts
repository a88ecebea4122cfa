import { defineEntity, p } from '@mikro-orm/core';
import { UserSchema } from './accounts.entities';

/**
 * Which identity-provider account signs in as which user. `(issuer, subject)` is unique: one
 * provider identity, one local user. Deleting the user deletes their links.
 */
export const IdentityLinkSchema = defineEntity({
  name: 'IdentityLink',
  tableName: 'identity_link',
  uniques: [{ name: 'identity_link_issuer_subject_unique', properties: ['issuer', 'subject'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    // Serves the cascade from app_user and the listing of a user's links.
    user: p.manyToOne(UserSchema).updateRule('cascade').deleteRule('cascade').index(),
    issuer: p.string().length(500),
    // OpenID Connect Core §2: at most 255 ASCII characters.
    subject: p.string().length(255),
    createdAt: p.datetime().columnType('timestamptz'),
  },
});

/**
 * Identity-provider sign-ins between redirect and callback: the PKCE verifier and the nonce stay
 * here, never in a URL. Keyed by the SHA-256 of the flow key carried in the signed state;
 * consumed once; deleted after expiry.
 */
export const IdpLoginFlowSchema = defineEntity({
  name: 'IdpLoginFlow',
  tableName: 'idp_login_flow',
  properties: {
    id: p.bigint().primary().autoincrement(),
    flowKeyHash: p.string().length(64).unique(),
    // RFC 7636: 43 to 128 characters.
    codeVerifier: p.string().length(128),
    nonce: p.string().length(255),
    // Serves the pruning of expired flows.
    expiresAt: p.datetime().columnType('timestamptz').index(),
    consumedAt: p.datetime().columnType('timestamptz').nullable(),
    createdAt: p.datetime().columnType('timestamptz'),
  },
});
