import * as v from 'valibot';
import { listBody } from '../list-response';
import { NEXT_LINK_HEADER } from '../paging';
import { defineRoute, type AnyRoute } from '../route';
import { ApiKeyIdParams, ApiKeyResponse, CreateApiKeyRequest, CreatedApiKeyResponse, ListApiKeysQuery } from '../schemas/api-key.schemas';
import type { ApiKey } from '../../../core/api-keys/api-key';
import type { CreateApiKey } from '../../../core/api-keys/create-api-key.use-case';
import type { ListApiKeys } from '../../../core/api-keys/list-api-keys.use-case';
import type { RevokeApiKey } from '../../../core/api-keys/revoke-api-key.use-case';

export interface ApiKeyUseCases {
  createApiKey: CreateApiKey;
  listApiKeys: ListApiKeys;
  revokeApiKey: RevokeApiKey;
}

const toResponse = (key: ApiKey): v.InferOutput<typeof ApiKeyResponse> => ({
  id: key.id,
  name: key.name,
  role: key.role,
  prefix: key.prefix,
  created_at: key.createdAt.toISOString(),
  created_by: key.createdBy,
  expires_at: key.expiresAt?.toISOString() ?? null,
  last_used_at: key.lastUsedAt?.toISOString() ?? null,
});

const TAG = 'ApiKeys';

/**
 * Keys are managed by signed-in admins only (`apiKeys: 'refused'`): a key that could mint keys
 * would let a leaked one outlive its own revocation.
 */
export function apiKeyRoutes(useCases: ApiKeyUseCases, options: { baseApiUrl: string }): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api-keys',
      tag: TAG,
      operationId: 'createApiKey',
      summary: 'Create an organization API key',
      description:
        'Creates a key that acts for the organization with `role` (not above your own: 403 `ACCESS_DENIED`) on every organization route that role reaches, sent as `Authorization: Bearer <key>`. ' +
        'The key (`tk_` then 43 characters) is in this response only: only its SHA-256 is stored. It belongs to the organization, not to you: it keeps working if you leave. ' +
        '`expires_at`, 1 hour to 1 year ahead, is optional (absent or null: never). Only a signed-in member may create keys, not a key.',
      access: 'org_admin',
      apiKeys: 'refused',
      body: CreateApiKeyRequest,
      responses: { 201: { description: 'The new key, with the key itself shown this once', schema: CreatedApiKeyResponse } },
      handler: async ({ caller, body }) => {
        const { apiKey, key } = await useCases.createApiKey.execute(caller, {
          name: body.name,
          role: body.role,
          ...(body.expires_at ? { expiresAt: body.expires_at } : {}),
        });
        return { status: 201, body: { ...toResponse(apiKey), key } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api-keys',
      tag: TAG,
      operationId: 'listApiKeys',
      summary: "List the organization's API keys, newest first",
      description: 'Newest first, expired keys too, never the keys themselves. Paged as `listProjects`: with `limit`, one page and `Link: <…>; rel="next"` while more remain.',
      access: 'org_admin',
      apiKeys: 'refused',
      query: ListApiKeysQuery,
      responses: { 200: { description: 'A page of keys; all of them without `limit`', schema: v.array(ApiKeyResponse), headers: NEXT_LINK_HEADER } },
      handler: async ({ caller, query, ctx }) => ({
        status: 200,
        body: await listBody(ctx, query, { page: (request) => useCases.listApiKeys.execute(caller, request), toResponse }, { baseApiUrl: options.baseApiUrl, path: '/api-keys' }),
      }),
    }),
    defineRoute({
      method: 'delete',
      path: '/api-keys/{api_key_id}',
      tag: TAG,
      operationId: 'revokeApiKey',
      summary: 'Revoke an API key',
      description: "Deletes the key for good: the next request that presents it gets 401 `UNAUTHORIZED`. Another organization's key answers 404, exactly like a missing one.",
      access: 'org_admin',
      apiKeys: 'refused',
      params: ApiKeyIdParams,
      responses: { 204: { description: 'Revoked' } },
      errors: ['RESOURCE_NOT_FOUND'],
      handler: async ({ caller, params }) => {
        await useCases.revokeApiKey.execute(caller, { apiKeyId: params.api_key_id });
        return { status: 204 };
      },
    }),
  ];
}
