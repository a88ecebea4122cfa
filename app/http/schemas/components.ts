import { AuditEventResponse } from './audit.schemas';
import type { GenericSchema } from 'valibot';
import {
  CurrentUserResponse,
  EmailRequest,
  IdpAuthorizeUrlResponse,
  LoginRequest,
  ResetPasswordRequest,
  roleName,
  RoleView,
  SignupOrgRequest,
  SignupRequest,
  SuccessResponse,
  TokenRequest,
  UpdateCurrentUserRequest,
  UpdatePasswordRequest,
  UserIdResponse,
} from './account.schemas';
import { CheckoutResponse, CreateCheckoutRequest, WebhookReceivedResponse } from './billing.schemas';
import {
  AcceptInvitationRequest,
  CreateInvitationRequest,
  CreateOrganizationRequest,
  InvitationResponse,
  MemberResponse,
  OrganizationResponse,
  UpdateMemberRoleRequest,
} from './organization.schemas';
import { CreateProjectRequest, ProjectResponse, UpdateProjectRequest } from './project.schemas';
import { ApiKeyResponse, CreateApiKeyRequest, CreatedApiKeyResponse } from './api-key.schemas';
import { PasskeyResponse } from './passkey.schemas';
import { ApiIndexResponse, HealthResponse, PongResponse } from './system.schemas';
import {
  CopilotRequest,
  CreditPackCheckoutRequest,
  CreditPackResponse,
  PeriodResponse,
  SystemSettingsRequest,
  SystemSettingsResponse,
  TopUserResponse,
  UsageRecordResponse,
  UsageSummaryResponse,
  VerifyCreditPackRequest,
  VerifyCreditPackResponse,
} from './ai.schemas';

/**
 * The named schemas of the OpenAPI description (`#/components/schemas/<name>`), which become the
 * client's named types. Wherever one of these schema objects appears in a route, the description
 * refers to it by name instead of repeating it. Requests are described as the client sends them
 * (before trimming and defaults), responses as the server sends them.
 */
export const REQUEST_COMPONENTS: Record<string, GenericSchema> = {
  RoleName: roleName,
  SignupRequest,
  SignupOrgRequest,
  LoginRequest,
  EmailRequest,
  TokenRequest,
  ResetPasswordRequest,
  UpdatePasswordRequest,
  UpdateCurrentUserRequest,
  CreateProjectRequest,
  UpdateProjectRequest,
  CreateOrganizationRequest,
  UpdateMemberRoleRequest,
  CreateInvitationRequest,
  AcceptInvitationRequest,
  CheckoutRequest: CreateCheckoutRequest,
  CopilotRequest,
  CreditPackCheckoutRequest,
  VerifyCreditPackRequest,
  SystemSettingsRequest,
  CreateApiKeyRequest,
};

export const RESPONSE_COMPONENTS: Record<string, GenericSchema> = {
  RoleName: roleName,
  Role: RoleView,
  User: CurrentUserResponse,
  UserId: UserIdResponse,
  Success: SuccessResponse,
  IdpAuthorizeUrl: IdpAuthorizeUrlResponse,
  Project: ProjectResponse,
  Organization: OrganizationResponse,
  Member: MemberResponse,
  Invitation: InvitationResponse,
  CheckoutSession: CheckoutResponse,
  WebhookReceived: WebhookReceivedResponse,
  Health: HealthResponse,
  Pong: PongResponse,
  ApiIndex: ApiIndexResponse,
  Period: PeriodResponse,
  UsageSummary: UsageSummaryResponse,
  UsageRecord: UsageRecordResponse,
  TopUser: TopUserResponse,
  CreditPack: CreditPackResponse,
  CreditPackStatus: VerifyCreditPackResponse,
  SystemSettings: SystemSettingsResponse,
  ApiKey: ApiKeyResponse,
  CreatedApiKey: CreatedApiKeyResponse,
  AuditEvent: AuditEventResponse,
  Passkey: PasskeyResponse,
};
