import type { SandboxClock } from './clock';
import type { Ids } from './ids';
import type { AccountState, ApiKey, EffectRecord, OperationRecord, RecordedCall } from './model';
import { SandboxApiError } from './sandboxError';

/** An account may have at most ten active keys (spec: API key). */
export const MAX_ACTIVE_KEYS = 10;

export interface AttachmentLink {
	token: string;
	accountId: string;
	storedId: string;
	expiresAt: number;
}

/** Everything the sandbox remembers; `reset()` on the handle replaces it with a fresh seed. */
export class SandboxState {
	readonly accounts = new Map<string, AccountState>();
	readonly keys: ApiKey[] = [];
	readonly operations = new Map<string, OperationRecord>();
	readonly effects: EffectRecord[] = [];
	readonly calls: RecordedCall[] = [];
	readonly links = new Map<string, AttachmentLink>();

	constructor(
		readonly ids: Ids,
		readonly clock: SandboxClock,
	) {}

	account(id: string): AccountState {
		const account = this.accounts.get(id);
		if (!account) throw new Error(`no sandbox account ${id}`);
		return account;
	}

	keyBySecret(secret: string): ApiKey | undefined {
		return this.keys.find((key) => key.secret === secret);
	}

	createKey(input: {
		accountId: string;
		name: string;
		scopes: string[];
		owner: boolean;
		secret?: string;
		revoked?: boolean;
	}): ApiKey {
		const active = this.keys.filter((k) => k.accountId === input.accountId && !k.revoked).length;
		if (!input.revoked && active >= MAX_ACTIVE_KEYS) {
			throw new SandboxApiError(
				422,
				'tool_error',
				`An account may have at most ${MAX_ACTIVE_KEYS} active API keys; revoke one first.`,
			);
		}
		const key: ApiKey = {
			id: this.ids.prefixed('key_', 8),
			secret: input.secret ?? this.ids.prefixed('ma_sk_', 24),
			name: input.name,
			accountId: input.accountId,
			scopes: [...input.scopes],
			owner: input.owner,
			revoked: input.revoked ?? false,
			createdAt: this.clock.now(),
		};
		this.keys.push(key);
		return key;
	}

	revokeKey(secretOrName: string): ApiKey {
		const key = this.keys.find((k) => k.secret === secretOrName || k.name === secretOrName);
		if (!key) throw new SandboxApiError(404, 'not_found', 'No such key.');
		key.revoked = true;
		return key;
	}

	recordEffect(accountId: string, tool: string, operationId: string, summary: string): void {
		this.effects.push({ accountId, tool, operationId, summary, at: this.iso() });
	}

	iso(ms: number = this.clock.now()): string {
		return new Date(ms).toISOString();
	}
}
