import type { OrganizationRepository } from '../../core/accounts/organization-repository.port';
import type { AiCapacity } from '../../core/ai/ai-capacity.port';
import { overageAllowed } from '../../core/ai/capacity-rules';
import type { Admission, AdmissionRequest, CopilotAdmission } from '../../core/ai/copilot-admission.port';
import { noteInputEstimate } from '../../core/ai/copilot-prompt';
import type { ModelPriceRepository } from '../../core/ai/model-price.port';
import type { SystemSettingsRepository } from '../../core/ai/system-settings.port';
import type { NoteRepository } from '../../core/notes/note-repository.port';
import type { EffectivePlan } from '../../core/plans/effective-plan';

export interface InMemoryCopilotAdmissionPorts {
  notes: Pick<NoteRepository, 'findById'>;
  /** The plans context's EffectivePlanResolver: the rule the PostgreSQL function mirrors. */
  plans: { forOrganization(organizationId: number): Promise<EffectivePlan> };
  organizations: Pick<OrganizationRepository, 'findSettings'>;
  systemSettings: SystemSettingsRepository;
  capacity: AiCapacity;
  prices: ModelPriceRepository;
}

/**
 * The copilot's checks and reservation over the in-memory adapters: each check reads through the
 * repository that owns it, in the port's order, and the reservation is AiCapacity.reserve under
 * the store's lock. The reference the PostgreSQL function (`ai_admit`) is held to by the
 * CopilotAdmission contract suite.
 */
export class InMemoryCopilotAdmission implements CopilotAdmission {
  constructor(private readonly ports: InMemoryCopilotAdmissionPorts) {}

  async admit(request: AdmissionRequest): Promise<Admission> {
    const { notes, plans, organizations, systemSettings, capacity } = this.ports;
    const { organizationId, userId } = request.owner;
    const note = await notes.findById(request.owner, request.noteId);
    if (!note) return { outcome: 'note_not_found' };
    if (!request.aiConfigured) return { outcome: 'ai_disabled' };
    const { plan, period, subscribed } = await plans.forOrganization(organizationId);
    if (!plan.features.enable_ai) return { outcome: 'ai_disabled' };
    const [organization, system] = await Promise.all([organizations.findSettings(organizationId), systemSettings.get()]);
    const reservation = await capacity.reserve({
      organizationId,
      userId,
      feature: request.feature,
      model: request.model,
      period,
      allotmentLimit: plan.features.token_limit,
      inputEstimate: noteInputEstimate(request.promptCharacters, note),
      overageAllowed: overageAllowed({ organizationSwitch: organization?.overageEnabled === true, systemSwitch: system.aiOverageEnabled, subscribed }),
      createdAt: request.createdAt,
      expiresAt: request.expiresAt,
    });
    if (!reservation) return { outcome: 'quota_exceeded', tokenLimit: plan.features.token_limit };
    return { outcome: 'reserved', note: { title: note.title, content: note.content }, reservation, price: await this.ports.prices.find(request.model) };
  }
}
