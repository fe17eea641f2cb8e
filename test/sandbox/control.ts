import type { InjectMessageInput, SandboxActions } from './actions';
import type { FaultSpec } from './faults';
import type {
	CampaignState,
	Channel,
	FilterEntry,
	FilterMode,
	SendStatus,
	TemplateStatus,
} from './model';
import { SandboxApiError } from './sandboxError';
import type { World } from './world';

type Body = Record<string, unknown>;
type Route = (body: Body, match: RegExpExecArray) => unknown;

const bad = (message: string) => new SandboxApiError(400, 'invalid_input', message);

function clockBody(body: Body): { speed?: number; advanceMs?: number; set?: number } {
	const number = (field: string) => {
		const value = body[field];
		if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value)))
			throw bad(`${field} must be a number.`);
		return value as number | undefined;
	};
	const set = typeof body.set === 'string' ? Date.parse(body.set) : number('set');
	if (set !== undefined && Number.isNaN(set)) throw bad('set must be epoch ms or an ISO date.');
	return { speed: number('speed'), advanceMs: number('advanceMs'), set };
}

/**
 * The control API under /__sandbox/ (no auth: the server listens on loopback only).
 * It mirrors the test handle so the dev setup and real-n8n tests can drive the sandbox too.
 */
export function createControl(world: World, actions: SandboxActions) {
	const clock = () => ({
		now: new Date(world.clock.now()).toISOString(),
		speed: world.clock.speed,
	});
	const routes: [string, RegExp, Route][] = [
		['GET', /^\/state$/, () => actions.snapshot()],
		['GET', /^\/keys$/, () => ({ keys: world.keys })],
		['POST', /^\/keys$/, (b) => actions.createKey(b as { name: string })],
		['POST', /^\/keys\/revoke$/, (b) => actions.revokeKey(String(b.key ?? b.name ?? ''))],
		['POST', /^\/reset$/, () => (world.reset(), { reset: true })],
		[
			'POST',
			/^\/inject\/message$/,
			(b) => actions.injectMessage(b as unknown as InjectMessageInput),
		],
		[
			'POST',
			/^\/inject\/status$/,
			(b) =>
				actions.injectStatus({
					messageId: String(b.message_id ?? ''),
					status: b.status as SendStatus,
					errors: b.errors as never,
				}),
		],
		[
			'POST',
			/^\/channels\/(qr|business)\/(connect|disconnect)$/,
			(b, m) =>
				actions.setChannel(m[1] as Channel, m[2] === 'connect', {
					needsHuman: b.needsHuman as boolean | undefined,
					reason: b.reason as string | undefined,
					accountId: b.accountId as string | undefined,
				}),
		],
		['POST', /^\/limits\/qr-sends\/reset$/, () => (world.limits.forgetQrSends(), { reset: true })],
		['GET', /^\/calls$/, () => ({ calls: world.state.calls })],
		['GET', /^\/sends$/, () => ({ sends: actions.sends() })],
		['GET', /^\/effects$/, () => ({ effects: world.state.effects })],
		['GET', /^\/faults$/, () => ({ faults: world.faults.active() })],
		['POST', /^\/faults$/, (b) => ({ fault: addFault(world, b) })],
		['DELETE', /^\/faults$/, () => (world.faults.clear(), { faults: [] })],
		['GET', /^\/clock$/, clock],
		[
			'POST',
			/^\/clock$/,
			(b) => {
				const { speed, advanceMs, set } = clockBody(b);
				if (set !== undefined) world.clock.set(set);
				if (advanceMs !== undefined) world.clock.advance(advanceMs);
				if (speed !== undefined) world.clock.setSpeed(speed);
				return clock();
			},
		],
		[
			'POST',
			/^\/templates\/review$/,
			(b) =>
				actions.reviewTemplate({
					name: String(b.name),
					language: String(b.language),
					status: b.status as TemplateStatus,
				}),
		],
		[
			'POST',
			/^\/campaigns\/([^/]+)\/state$/,
			(b, m) => actions.setCampaignState({ campaignId: m[1], state: b.state as CampaignState }),
		],
		[
			'POST',
			/^\/filters$/,
			(b) =>
				actions.setFilters({ mode: b.mode as FilterMode, entries: b.entries as FilterEntry[] }),
		],
		[
			'GET',
			/^\/webhooks$/,
			() => ({
				endpoints: world.webhooks.endpoints(),
				deliveries: world.webhooks.deliveries(),
				faults: world.webhooks.faults.pending(),
			}),
		],
		[
			'POST',
			/^\/webhooks\/faults$/,
			(b) => {
				if (typeof b.duplicate === 'number') world.webhooks.faults.duplicateNext(b.duplicate);
				if (typeof b.reorder === 'number') world.webhooks.faults.reorderNext(b.reorder);
				if (typeof b.lose === 'number') world.webhooks.faults.loseNext(b.lose);
				if (typeof b.exhaust === 'number') world.webhooks.faults.exhaustNext(b.exhaust);
				const disabled = b.disable === undefined ? [] : disableEndpoints(world, b);
				return {
					faults: world.webhooks.faults.pending(),
					...(b.disable === undefined ? {} : { disabled: disabled.map((e) => e.id) }),
				};
			},
		],
	];

	return async (
		method: string,
		path: string,
		body: Body | undefined,
	): Promise<{ status: number; body: unknown }> => {
		for (const [verb, pattern, handler] of routes) {
			const match = pattern.exec(path);
			if (match && verb === method) return { status: 200, body: handler(body ?? {}, match) };
		}
		throw new SandboxApiError(404, 'not_found', `No control route ${method} /__sandbox${path}.`);
	};
}

function disableEndpoints(world: World, body: Body) {
	const reason = body.disable === true ? 'gone' : body.disable;
	if (reason !== 'gone' && reason !== 'consecutive_failures')
		throw bad("disable must be true, 'gone' or 'consecutive_failures'.");
	return world.webhooks.disable(
		reason,
		typeof body.endpointId === 'string' ? body.endpointId : undefined,
	);
}

function addFault(world: World, body: Body) {
	if (typeof body.tool !== 'string') throw bad('tool is required.');
	try {
		return world.faults.add(body as unknown as FaultSpec);
	} catch (error) {
		throw bad((error as Error).message);
	}
}
