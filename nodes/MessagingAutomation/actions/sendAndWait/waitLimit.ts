import {
	NodeOperationError,
	WAIT_INDEFINITELY,
	type IDataObject,
	type IExecuteFunctions,
} from 'n8n-workflow';

/* Options › Limit Wait Time, with n8n's own parameter names, so its tooling reads them too. */

const UNIT_MS: Record<string, number> = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 };

/** When the execution resumes without an answer: never, unless a limit is set. */
export function waitTill(context: IExecuteFunctions): Date {
	const limit = context.getNodeParameter('options.limitWaitTime.values', 0, {}) as IDataObject;
	if (Object.keys(limit).length === 0) return WAIT_INDEFINITELY;
	const until =
		limit.limitType === 'atSpecifiedTime'
			? new Date(String(limit.maxDateAndTime ?? ''))
			: new Date(
					Date.now() +
						Number(limit.resumeAmount ?? 1) *
							(UNIT_MS[String(limit.resumeUnit ?? 'hours')] ?? UNIT_MS.hours),
				);
	if (Number.isNaN(until.getTime())) {
		throw new NodeOperationError(context.getNode(), 'Limit Wait Time needs a valid date and time', {
			description:
				'Set Max Date and Time to a date such as 2026-12-01T09:00:00Z, or choose After Time Interval.',
		});
	}
	return until;
}
