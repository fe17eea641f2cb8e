import { describe, expect, it } from 'vitest';

import { ServiceClock } from '../../../nodes/MessagingAutomationTrigger/serviceClock';

/*
 * The service's time as the trigger places it on its own clock. Local and service times here are
 * made up: only their differences matter, and `now()` is checked against `at(local)`.
 */

const LOCAL = 1_800_000_000_000;
/** The service's clock runs this far behind the host's. */
const SKEW = 20_000;

describe('ServiceClock', () => {
	it("knows the service's time to a second from a delivery the service retried 30 s late", () => {
		const clock = new ServiceClock(`retried-${Math.random()}`);
		const sentAt = Math.floor((LOCAL - SKEW) / 1000) * 1000;
		clock.observe({ arrivedAt: LOCAL, writtenAt: LOCAL - SKEW - 30_000, sentAt });
		const estimate = clock.at(LOCAL);
		// Never ahead of the service (a read would vouch for messages not written yet), at most 1 s behind.
		expect(estimate).toBeLessThanOrEqual(LOCAL - SKEW);
		expect(estimate).toBeGreaterThan(LOCAL - SKEW - 1000);
	});

	it('keeps what earlier deliveries taught it, for every conversation of the trigger', () => {
		const scope = `kept-${Math.random()}`;
		new ServiceClock(scope).observe({ arrivedAt: LOCAL, writtenAt: LOCAL - SKEW - 5 });
		const later = new ServiceClock(scope);
		later.observe({ arrivedAt: LOCAL + 60_000, writtenAt: LOCAL + 60_000 - SKEW - 30_000 });
		expect(later.at(LOCAL + 60_000)).toBe(LOCAL + 60_000 - SKEW - 5);
	});

	it('learns again after ten minutes without a better bound, so a host clock set forward is followed', () => {
		const scope = `forward-${Math.random()}`;
		const clock = new ServiceClock(scope);
		clock.observe({ arrivedAt: LOCAL, writtenAt: LOCAL - SKEW });
		// The host's clock jumps 5 s forward; eleven minutes on, the old bound would put the service 5 s ahead.
		const arrivedAt = LOCAL + 11 * 60_000 + 5000;
		clock.observe({ arrivedAt, writtenAt: LOCAL + 11 * 60_000 - SKEW });
		expect(clock.at(arrivedAt)).toBe(LOCAL + 11 * 60_000 - SKEW);
	});
});
