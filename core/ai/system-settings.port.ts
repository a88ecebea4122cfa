/** Switches that hold for the whole deployment, changed by a sys_admin. */
export interface SystemSettings {
  /** Organizations that enable overage may go beyond their AI capacity, billed as overage. */
  aiOverageEnabled: boolean;
}

/** One row of settings; every switch is off until a sys_admin turns it on. */
export interface SystemSettingsRepository {
  get(): Promise<SystemSettings>;
  /** Changes the keys given; returns the settings after the change. */
  update(changes: Partial<SystemSettings>, at: Date): Promise<SystemSettings>;
}
