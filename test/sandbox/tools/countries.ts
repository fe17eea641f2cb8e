/**
 * Calling codes to candidate countries. A code can stand for several countries (+1, +7),
 * which is why the CSV analysis reports candidates, not a country.
 */
const CALLING_CODES: Record<string, string[]> = {
	'1': ['US', 'CA', 'PR', 'JM', 'DO'],
	'7': ['RU', 'KZ'],
	'20': ['EG'],
	'27': ['ZA'],
	'31': ['NL'],
	'32': ['BE'],
	'33': ['FR'],
	'34': ['ES'],
	'39': ['IT', 'VA'],
	'41': ['CH'],
	'43': ['AT'],
	'44': ['GB', 'GG', 'IM', 'JE'],
	'45': ['DK'],
	'46': ['SE'],
	'47': ['NO', 'SJ'],
	'48': ['PL'],
	'49': ['DE'],
	'51': ['PE'],
	'52': ['MX'],
	'54': ['AR'],
	'55': ['BR'],
	'56': ['CL'],
	'57': ['CO'],
	'60': ['MY'],
	'61': ['AU', 'CX', 'CC'],
	'62': ['ID'],
	'63': ['PH'],
	'64': ['NZ'],
	'65': ['SG'],
	'66': ['TH'],
	'81': ['JP'],
	'82': ['KR'],
	'84': ['VN'],
	'86': ['CN'],
	'90': ['TR'],
	'91': ['IN'],
	'92': ['PK'],
	'234': ['NG'],
	'254': ['KE'],
	'351': ['PT'],
	'353': ['IE'],
	'880': ['BD'],
	'966': ['SA'],
	'971': ['AE'],
	'972': ['IL'],
};

/** Longest matching calling code (country codes are prefix-free), or null. */
export function callingCode(phoneDigits: string): string | null {
	for (const length of [3, 2, 1]) {
		const code = phoneDigits.slice(0, length);
		if (CALLING_CODES[code]) return code;
	}
	return null;
}

export function candidateCountries(phoneDigits: string): string[] {
	const code = callingCode(phoneDigits);
	return code ? [...CALLING_CODES[code]] : [];
}
