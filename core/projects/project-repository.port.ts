import type { ListWindow } from '../shared/list-page';
import type { Project } from './project';

export interface NewProject {
  /** Null when an API key creates it. */
  userId: number | null;
  name: string;
  description: string | null;
  /** From the Clock; also the initial `updatedAt`. */
  createdAt: Date;
}

/** `undefined` leaves a field as stored; `updatedAt` is always written. */
export interface ProjectPatch {
  name?: string;
  description?: string | null;
  updatedAt: Date;
}

/**
 * Projects, each owned by one organization. Every method takes the caller's organization id and
 * never sees another organization's rows: a project of another organization behaves exactly like
 * a missing one (null / false). Deleting an organization or a user deletes their projects.
 */
export interface ProjectRepository {
  /**
   * Creates the project only while the organization holds fewer than `limit` projects (-1: no
   * limit), checked and inserted atomically: with one slot left, of N concurrent calls exactly
   * one creates. Null when the organization is at or above its limit; nothing is stored then.
   */
  createWithinLimit(organizationId: number, project: NewProject, limit: number): Promise<Project | null>;
  /**
   * Newest first: `createdAt` descending, then `id` descending, so the order is total and stable
   * for keyset paging. At most `window.limit` projects (all when omitted), strictly after
   * `window.after` in that order.
   */
  list(organizationId: number, window?: ListWindow): Promise<Project[]>;
  findById(organizationId: number, id: number): Promise<Project | null>;
  /** Returns the updated project, or null when absent from the organization. */
  update(organizationId: number, id: number, patch: ProjectPatch): Promise<Project | null>;
  /** Returns whether a project was deleted. */
  delete(organizationId: number, id: number): Promise<boolean>;
  /** How many projects the organization has: what `max_projects` counts. */
  countByOrganization(organizationId: number): Promise<number>;
}
