const ACRONYMS: Record<string, string> = {
	id: 'ID',
	ids: 'IDs',
	jid: 'JID',
	csv: 'CSV',
	url: 'URL',
	json: 'JSON',
	qr: 'QR',
	utc: 'UTC',
};

function words(name: string): string[] {
	return name
		.replace(/([a-z0-9])([A-Z])/g, '$1 $2')
		.split(/[\s_.-]+/)
		.filter((word) => word.length > 0);
}

/** `campaignId` → "Campaign ID", `get_business_health` → "Get Business Health". */
export function humanize(name: string): string {
	return words(name)
		.map(
			(word) =>
				ACRONYMS[word.toLowerCase()] ?? word.charAt(0).toUpperCase() + word.slice(1).toLowerCase(),
		)
		.join(' ');
}

/** `recipients` → `recipient`, `phoneNumbers` → `phoneNumber`: enough for the API's field names. */
export function singular(name: string): string {
	return name.endsWith('s') ? name.slice(0, -1) : name;
}

/** `consentAt` → `ConsentAt`, for composing parameter names. */
export function capitalize(name: string): string {
	return name.charAt(0).toUpperCase() + name.slice(1);
}
