/** The contact form's limits and the endpoint's answer; zod-free, so the web bundle can import it. */
export const CONTACT_MESSAGE_MAX = 5000;

export type ContactMessage = { name: string; email: string; message: string };

/** What POST /api/contact answers: the form-handling service's shape the spec's form reads. */
export type ContactResponse = { ok: true } | { ok: false; errors: { field?: string; message: string }[] };
