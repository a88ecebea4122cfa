import { RunCopilot, type CopilotDeps } from './run-copilot';

/** Summarizes one of the caller's notes in a few sentences, streamed; the note is not changed. */
export class SummarizeNote extends RunCopilot {
  constructor(deps: CopilotDeps) {
    super(deps, 'summarize');
  }
}
