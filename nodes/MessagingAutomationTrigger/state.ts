import type { IDataObject } from 'n8n-workflow';

/**
 * Layout of the node's static data (`getWorkflowStaticData('node')`):
 *
 *   endpoints.test | endpoints.production   the endpoint registered for that webhook URL
 *   orphans                                  ids we created but could not delete yet
 *   recentEventIds                           dedupe window, oldest first
 *
 * n8n keeps test static data apart from production (a test run starts from an empty copy that is
 * never saved), but keying by mode as well means even a copied object can never make one mode
 * delete or trust the other's endpoint. Changes are written as whole top-level values because
 * n8n only notices assignments on the object it handed out, not edits inside nested values.
 */
export type WebhookMode = 'test' | 'production';

export interface RegisteredEndpoint {
	id: string;
	url: string;
	secret: string;
	eventTypes: string[];
}

function isEndpoint(value: unknown): value is RegisteredEndpoint {
	const candidate = value as Partial<RegisteredEndpoint> | undefined;
	return (
		typeof candidate?.id === 'string' &&
		typeof candidate.url === 'string' &&
		typeof candidate.secret === 'string' &&
		Array.isArray(candidate.eventTypes)
	);
}

function stringList(value: unknown): string[] {
	return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** n8n runs test webhooks in `manual` mode; every other mode serves the production URL. */
export function webhookMode(executionMode: string): WebhookMode {
	return executionMode === 'manual' ? 'test' : 'production';
}

export class TriggerState {
	constructor(private readonly data: IDataObject) {}

	endpoint(mode: WebhookMode): RegisteredEndpoint | undefined {
		const stored = (this.data.endpoints as IDataObject | undefined)?.[mode];
		return isEndpoint(stored) ? stored : undefined;
	}

	setEndpoint(mode: WebhookMode, endpoint: RegisteredEndpoint | undefined): void {
		const endpoints = { ...((this.data.endpoints as IDataObject | undefined) ?? {}) };
		if (endpoint) endpoints[mode] = { ...endpoint };
		else delete endpoints[mode];
		this.data.endpoints = endpoints;
	}

	orphans(): string[] {
		return stringList(this.data.orphans);
	}

	setOrphans(ids: Iterable<string>): void {
		this.data.orphans = [...new Set(ids)];
	}

	recentEventIds(): string[] {
		return stringList(this.data.recentEventIds);
	}

	setRecentEventIds(ids: string[]): void {
		this.data.recentEventIds = ids;
	}
}
