import { RunCopilot, type CopilotDeps } from './run-copilot';

/** Rewrites one of the caller's notes for clarity and tone, streamed; the note is not changed. */
export class ImproveNote extends RunCopilot {
  constructor(deps: CopilotDeps) {
    super(deps, 'improve');
  }
}
