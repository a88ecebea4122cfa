import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAiFake, type OpenAiFake } from '../fakes/openai-fake';
import { startTestApp, type TestApp } from '../support/app';
import { copilotWorld, eventually, inputEstimateOf, readChunks, type Caller, type CopilotWorld } from '../support/copilot';
import { expectApiError, expectSecurityHeaders } from '../support/http-assertions';
import { requirePostgres } from '../support/postgres';

/**
 * The AI copilot end to end: the real server, composed as `npm start` composes it, with the real
 * OpenAI SDK pointed at the Responses API fake. What is checked is what a client and the model
 * provider see (the streamed body, the refusals, the request the model got) and what the
 * organization is charged (the usage rows).
 */
const postgres = await requirePostgres();
const MODEL = 'gpt-5-mini-e2e';
const UNLIMITED = { token_limit: -1, enable_ai: true };

const improve = (caller: Caller, noteId: number, init: { tone?: string; signal?: AbortSignal } = {}) =>
  caller.api.POST('/notes/{note_id}/copilot/improve', {
    params: { path: { note_id: noteId } },
    body: init.tone === undefined ? {} : { tone: init.tone as never },
    parseAs: 'stream' as const,
    ...(init.signal ? { signal: init.signal } : {}),
  });

const summarize = (caller: Caller, noteId: number) =>
  caller.api.POST('/notes/{note_id}/copilot/summarize', { params: { path: { note_id: noteId } }, body: { tone: 'concise' }, parseAs: 'stream' as const });

describe.skipIf(!postgres)('copilot without an OpenAI key', () => {
  let app: TestApp;
  let world: CopilotWorld;

  beforeAll(async () => {
    app = await startTestApp();
    world = copilotWorld(app);
  });
  afterAll(() => app?.close());

  it('says so in GET /config', async () => {
    const res = await app.request('/config');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ai: false });
  });

  it('answers FEATURE_DISABLED even on a plan with AI, and 404 first for a note that is not the caller’s', async () => {
    const alice = await world.as('member');
    await world.givePlan(alice.organizationId, UNLIMITED);
    const note = await world.noteOf(alice);
    const disabled = await improve(alice, note);
    // The cause is the server's missing key, not the plan: named, never with a value.
    expect(expectApiError(disabled, 403, 'FEATURE_DISABLED')).toEqual({
      feature_key: 'enable_ai',
      reason: 'model_not_configured',
      missing_setting: 'APP_OPENAI_API_KEY',
    });
    expect((disabled.error as { message: string }).message).toBe('The AI copilot is off on this server: no AI model is configured (APP_OPENAI_API_KEY is not set)');
    expectApiError(await summarize(alice, note), 403, 'FEATURE_DISABLED');

    const colleague = await world.as('member', alice.organizationId);
    expect(expectApiError(await improve(colleague, note), 404, 'RESOURCE_NOT_FOUND')).toEqual({ resource: 'note', resource_id: note });
    expectApiError(await improve(alice, note + 1000), 404, 'RESOURCE_NOT_FOUND');
  });
});

describe.skipIf(!postgres)('copilot against the OpenAI fake', () => {
  let fake: OpenAiFake;
  let app: TestApp;
  let world: CopilotWorld;

  beforeAll(async () => {
    fake = await startOpenAiFake();
    app = await startTestApp({ APP_OPENAI_API_KEY: fake.apiKey, APP_OPENAI_BASE_URL: fake.url, APP_OPENAI_MODEL: MODEL });
    world = copilotWorld(app);
  });
  afterEach(() => {
    // Every request the app made must have been a well-formed, authenticated Responses API call.
    expect(fake.protocolErrors).toEqual([]);
  });
  afterAll(async () => {
    await app?.close();
    await fake?.close();
  });

  /** A member of a fresh organization on a plan with these features, and one note of theirs. */
  async function memberWithNote(features = UNLIMITED) {
    const member = await world.as('member');
    const planId = await world.givePlan(member.organizationId, features);
    return { member, planId, note: await world.noteOf(member) };
  }

  it('says so in GET /config', async () => {
    expect(await (await app.request('/config')).json()).toMatchObject({ ai: true });
  });

  it('streams the answer chunk by chunk as the model writes it, not buffered, with the usual headers', async () => {
    const { member, note } = await memberWithNote();
    const deltas = Array.from({ length: 10 }, (_, i) => `part-${i} `);
    fake.script({ deltas, deltaDelayMs: 100 });
    const { response } = await improve(member, note);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expectSecurityHeaders(response);

    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    const first = await reader.read();
    const firstText = decoder.decode(first.value);
    // The model is still writing when the first chunk reaches the client: nothing waits for the whole answer.
    expect(fake.activeStreams).toBe(1);
    expect(firstText.startsWith('part-0')).toBe(true);
    expect(firstText).not.toContain('part-9');
    const rest: string[] = [];
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      rest.push(decoder.decode(next.value, { stream: true }));
    }
    expect(firstText + rest.join('')).toBe(deltas.join(''));
    expect(rest.length).toBeGreaterThan(1);
  });

  it('sends the model the configured model, the task as instructions, the note as input, and the output bound', async () => {
    const { member } = await memberWithNote();
    const note = await world.noteOf(member, 'Launch checklist', 'Ask legal about the new termz.');
    fake.script({ deltas: ['Done.'] });
    const res = await improve(member, note, { tone: 'formal' });
    expect(res.response.status).toBe(200);
    expect((await readChunks(res.response.body!)).join('')).toBe('Done.');
    const request = fake.requests.at(-1)!;
    expect(request.model).toBe(MODEL);
    expect(request.stream).toBe(true);
    expect(request.instructions).toMatch(/rewrite/i);
    expect(request.instructions).toMatch(/formal/i);
    expect(request.input).toEqual(expect.stringContaining('Launch checklist'));
    expect(request.input).toEqual(expect.stringContaining('Ask legal about the new termz.'));
    // Unlimited capacity: the bound is the most any call may write.
    expect(request.max_output_tokens).toBe(2000);

    fake.script({ deltas: ['Short.'] });
    const summary = await summarize(member, note);
    expect((await readChunks(summary.response.body!)).join('')).toBe('Short.');
    const summaryRequest = fake.requests.at(-1)!;
    expect(summaryRequest.instructions).toMatch(/summar/i);
    expect(summaryRequest.instructions).not.toBe(request.instructions);
    expect(summaryRequest.input).toEqual(expect.stringContaining('Launch checklist'));
  });

  it('bounds the output by what capacity leaves after the input, and refuses a call that cannot get 200 output tokens', async () => {
    const { member, planId, note } = await memberWithNote();
    fake.script({ deltas: ['x'] });
    await readChunks((await improve(member, note)).response.body!);
    const estimate = inputEstimateOf(fake.requests.at(-1)!);
    const sent = fake.requests.length;
    const other = await memberWithNote({ token_limit: estimate + 199, enable_ai: true });
    const otherNote = await world.noteOf(other.member); // same title and content, so the same estimate
    const refused = await improve(other.member, otherNote);
    expect(expectApiError(refused, 403, 'QUOTA_EXCEEDED')).toEqual({ feature_key: 'token_limit', limit: estimate + 199 });
    expect(fake.requests.length).toBe(sent); // refused before the model was called

    await world.setPlanFeatures(other.planId, { token_limit: estimate + 200, enable_ai: true });
    fake.script({ deltas: ['ok'], usage: { inputTokens: 10, outputTokens: 1 } });
    const fits = await improve(other.member, otherNote);
    expect(fits.response.status).toBe(200);
    await readChunks(fits.response.body!);
    expect(fake.requests.at(-1)!.max_output_tokens).toBe(200);

    await world.setPlanFeatures(planId, { token_limit: 1000, enable_ai: true });
    fake.script({ deltas: ['ok'] });
    await readChunks((await improve(member, note)).response.body!);
    // This organization has been charged for its first call already; the bound is what is left.
    const [firstCall] = await world.usageRows(member.organizationId);
    expect(fake.requests.at(-1)!.max_output_tokens).toBe(Math.min(2000, 1000 - firstCall!.allotment_tokens - estimate));
  });

  it('checks in order: the note (404, even with AI off), then the plan’s enable_ai, then capacity', async () => {
    const onFree = await world.as('member'); // the default Free plan: AI off and a token_limit of 0
    const freeNote = await world.noteOf(onFree);
    const sent = fake.requests.length;
    expect(expectApiError(await improve(onFree, freeNote), 403, 'FEATURE_DISABLED')).toEqual({ feature_key: 'enable_ai' });

    const stranger = await world.as('member');
    await world.givePlan(stranger.organizationId, { token_limit: 0, enable_ai: true });
    expect(expectApiError(await improve(stranger, freeNote), 404, 'RESOURCE_NOT_FOUND')).toEqual({ resource: 'note', resource_id: freeNote });
    const colleague = await world.as('member', onFree.organizationId);
    expectApiError(await improve(colleague, freeNote), 404, 'RESOURCE_NOT_FOUND');

    const strangerNote = await world.noteOf(stranger);
    expect(expectApiError(await improve(stranger, strangerNote), 403, 'QUOTA_EXCEEDED')).toEqual({ feature_key: 'token_limit', limit: 0 });
    expect(fake.requests.length).toBe(sent);
    expect(await world.usageRows(stranger.organizationId)).toEqual([]);
  });

  it('refuses readonly callers, and a tone it does not know', async () => {
    const { member, note } = await memberWithNote();
    const readonly = await world.as('readonly', member.organizationId);
    expectApiError(await improve(readonly, note), 403, 'ACCESS_DENIED');
    expectApiError(await summarize(readonly, note), 403, 'ACCESS_DENIED');
    for (const tone of ['shouty', '', 'FORMAL']) {
      expect(expectApiError(await improve(member, note, { tone }), 422, 'VALIDATION_ERROR')).toHaveProperty(['body.tone']);
    }
  });

  it.each(['http-500', 'http-429'] as const)('answers a provider %s before the first byte with 503, charging nothing', async (ending) => {
    const { member, note } = await memberWithNote();
    fake.script({ ending });
    const res = await improve(member, note);
    expectApiError(res, 503, 'SERVICE_UNAVAILABLE');
    expectSecurityHeaders(res.response);
    expect(await world.usageRows(member.organizationId)).toEqual([]);
    expect(await world.reservations(member.organizationId)).toBe(0);
    const history = await member.api.GET('/usage/history');
    expect(history.data).toEqual([]);
  });

  it.each([
    ['the connection drops', 'cut'],
    ['the provider sends response.failed', 'failed-event'],
    ['the provider sends an error event', 'error-event'],
    ['the stream ends without a terminal event', 'ended-early'],
  ] as const)('cuts the answer short when %s mid-way, and charges the input estimate plus what was streamed', async (_label, ending) => {
    const { member, note } = await memberWithNote();
    const deltas = ['The first ', 'half of an ', 'answer'];
    fake.script({ deltas, ending });
    const res = await improve(member, note);
    expect(res.response.status).toBe(200);
    expect((await readChunks(res.response.body!)).join('')).toBe(deltas.join(''));
    const estimate = inputEstimateOf(fake.requests.at(-1)!);
    const rows = await eventually(async () => {
      const found = await world.usageRows(member.organizationId);
      return found.length > 0 ? found : undefined;
    });
    const output = Math.ceil(deltas.join('').length / 4);
    expect(rows).toEqual([
      expect.objectContaining({ user_id: member.userId, feature: 'improve', model: MODEL, input_tokens: estimate, output_tokens: output, allotment_tokens: estimate + output }),
    ]);
    expect(await world.reservations(member.organizationId)).toBe(0);
  });

  it('charges what the provider reported when it reports usage', async () => {
    const { member, note } = await memberWithNote();
    fake.script({ deltas: ['a', 'b'], usage: { inputTokens: 321, outputTokens: 45 } });
    await readChunks((await summarize(member, note)).response.body!);
    const rows = await eventually(async () => {
      const found = await world.usageRows(member.organizationId);
      return found.length > 0 ? found : undefined;
    });
    expect(rows).toEqual([expect.objectContaining({ feature: 'summarize', input_tokens: 321, output_tokens: 45, allotment_tokens: 366, credit_tokens: 0, overage_tokens: 0 })]);
  });

  it('holds no database connection while answers stream: more open streams than the pool has connections, and the API still answers', async () => {
    const { member, note } = await memberWithNote();
    const streams = 15; // the pool holds 10 connections
    const before = fake.abortedCount;
    const controllers = Array.from({ length: streams }, () => new AbortController());
    for (let i = 0; i < streams; i += 1) fake.script({ deltas: ['still writing '], ending: 'hang' });
    const responses = await Promise.all(controllers.map((controller) => improve(member, note, { signal: controller.signal })));
    const readers = responses.map((res) => {
      expect(res.response.status).toBe(200);
      return res.response.body!.getReader();
    });
    for (const reader of readers) expect((await reader.read()).value).toBeDefined();
    expect(fake.activeStreams).toBe(streams);

    const listed = await member.api.GET('/notes');
    expect(listed.response.status).toBe(200);
    expect((await member.api.GET('/usage/summary')).response.status).toBe(200);

    for (const controller of controllers) controller.abort();
    await fake.whenAborted(before + streams);
    const rows = await eventually(async () => {
      const found = await world.usageRows(member.organizationId);
      return found.length >= streams ? found : undefined;
    });
    expect(rows).toHaveLength(streams);
    expect(await world.reservations(member.organizationId)).toBe(0);
  });

  it('stops the model when the client leaves before the first byte, and charges and logs nothing: nothing was delivered', async () => {
    const { member, note } = await memberWithNote();
    fake.script({ firstByteDelayMs: 30_000 });
    const aborted = fake.whenAborted();
    const controller = new AbortController();
    const pending = improve(member, note, { signal: controller.signal }).catch((error: unknown) => error);
    // Abort only once the model has the request: the call is then in flight at the provider.
    const sent = fake.requests.length;
    await eventually(() => (fake.requests.length > sent || fake.activeStreams > 0 ? true : undefined));
    controller.abort();
    expect(await pending).toBeInstanceOf(Error);
    await aborted;
    await eventually(async () => ((await world.reservations(member.organizationId)) === 0 ? true : undefined));
    expect(await world.usageRows(member.organizationId)).toEqual([]);
  });

  it('stops the model when the client goes away mid-stream, and still writes the one usage row', async () => {
    const { member, note } = await memberWithNote();
    fake.script({ deltas: 200, deltaDelayMs: 50 });
    const aborted = fake.whenAborted();
    const controller = new AbortController();
    const res = await improve(member, note, { signal: controller.signal });
    expect(res.response.status).toBe(200);
    const reader = res.response.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    controller.abort();
    await aborted; // the app hung up on the model: the fake saw its stream closed before the end
    const rows = await eventually(async () => {
      const found = await world.usageRows(member.organizationId);
      return found.length > 0 ? found : undefined;
    });
    expect(rows).toHaveLength(1);
    const estimate = inputEstimateOf(fake.requests.at(-1)!);
    expect(rows[0]).toMatchObject({ user_id: member.userId, input_tokens: estimate });
    // Charged for what was streamed before the abort: some, and far fewer than 200 deltas.
    expect(rows[0]!.output_tokens).toBeGreaterThan(0);
    expect(rows[0]!.output_tokens).toBeLessThan(Math.ceil((200 * 'lorem '.length) / 4));
    expect(await world.reservations(member.organizationId)).toBe(0);
  });
});
