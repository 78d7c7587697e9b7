/** Text made safe to place in HTML, element content or a quoted attribute (the playground page, platform mail). */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
