import type { IDataObject } from 'n8n-workflow';

/*
 * The pages a person sees after tapping a link, styled after n8n's own form and "response
 * recorded" pages: one centred card, n8n's type and colours. Every value is escaped; the form
 * posts back to its own address, which carries the signature n8n checks.
 */

export interface FormField {
	label: string;
	type: 'text' | 'textarea' | 'number' | 'email' | 'date' | 'dropdown';
	options: string[];
	required: boolean;
}

export interface FormPage {
	title: string;
	description: string;
	buttonLabel: string;
	fields: FormField[];
}

function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

const STYLE = `
*{box-sizing:border-box}body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;
background:#fbfcfe;font-family:Open Sans,-apple-system,BlinkMacSystemFont,Segoe UI,Roboto,sans-serif;color:#555}
.card{width:min(448px,92vw);background:#fff;border:1px solid #dbdfe7;border-radius:8px;padding:24px;
box-shadow:0 4px 16px rgba(99,77,255,.06)}h1{font-size:20px;font-weight:600;color:#525356;margin:0 0 8px}
p{font-size:14px;line-height:1.5;margin:0 0 16px;white-space:pre-wrap}label{display:block;font-size:14px;font-weight:600;margin:16px 0 6px;color:#7e8186}
input,textarea,select{width:100%;font:inherit;font-size:14px;padding:10px 12px;border:1px solid #dbdfe7;border-radius:6px;background:#fff;color:#555}
textarea{min-height:120px;resize:vertical}button{margin-top:24px;width:100%;padding:12px;border:0;border-radius:6px;
background:#ff6d5a;color:#fff;font:inherit;font-size:14px;font-weight:600;cursor:pointer}.req{color:#ff6d5a}
.footer{margin-top:16px;text-align:center;font-size:12px;color:#aaa}`;

function page(title: string, body: string): string {
	return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex,nofollow"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main class="card">${body}</main></body></html>`;
}

/** The name a field posts under: its position, so labels may repeat or hold any character. */
const fieldName = (index: number) => `field-${index}`;

function control(field: FormField, index: number): string {
	const name = fieldName(index);
	const required = field.required ? ' required' : '';
	if (field.type === 'textarea')
		return `<textarea id="${name}" name="${name}"${required}></textarea>`;
	if (field.type === 'dropdown') {
		const options = field.options
			.map((option) => `<option>${escapeHtml(option)}</option>`)
			.join('');
		return `<select id="${name}" name="${name}"${required}><option value=""></option>${options}</select>`;
	}
	return `<input id="${name}" name="${name}" type="${field.type}"${required}>`;
}

export function formPage(form: FormPage): string {
	const fields = form.fields
		.map((field, index) => {
			const mark = field.required ? ' <span class="req">*</span>' : '';
			return `<label for="${fieldName(index)}">${escapeHtml(field.label)}${mark}</label>${control(field, index)}`;
		})
		.join('');
	// multipart/form-data: n8n 2.41 refuses any other body for a Send and Wait custom form (415,
	// "Expected multipart/form-data"), and every n8n parses it, into `data` (see formAnswers).
	const heading = form.title ? `<h1>${escapeHtml(form.title)}</h1>` : '';
	const description = form.description ? `<p>${escapeHtml(form.description)}</p>` : '';
	return page(
		form.title || 'Your response',
		`${heading}${description}<form method="post" action="" enctype="multipart/form-data">${fields}<button type="submit">${escapeHtml(form.buttonLabel)}</button></form>`,
	);
}

export function recordedPage(): string {
	return page(
		'Response recorded',
		'<h1>Got it, thanks</h1><p>Your response has been recorded. You can close this page now.</p>',
	);
}

/**
 * The answer to a request that may not answer the question: a link preview, curl, a method other
 * than the page's. Its title is what a chat app shows under a previewed link.
 */
export function browserOnlyPage(): string {
	return page(
		'Open this link in a browser to answer',
		'<h1>Open this link in a browser to answer</h1><p>This link answers a question only when a person opens it in a web browser. Link previews and other programs never count as an answer, so a chat app that fetches the link to show a preview cannot answer for anyone. Nothing was recorded.</p>',
	);
}

/** Form values by field label, as the node outputs them. */
export function formAnswers(fields: readonly FormField[], body: IDataObject): IDataObject {
	const values = (
		typeof body.data === 'object' && body.data !== null ? body.data : body
	) as IDataObject;
	const answers: IDataObject = {};
	fields.forEach((field, index) => {
		const raw = values[fieldName(index)];
		const text = Array.isArray(raw)
			? raw.map(String).join(', ')
			: raw === undefined
				? ''
				: String(raw);
		answers[field.label] =
			field.type === 'number' && text !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
	});
	return answers;
}
