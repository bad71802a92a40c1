/** Server-rendered pages (main app, developer pages): plain HTML styled by /server.css; scripts only from files. */
export function page(title: string, body: string, lang = 'en'): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} · Divilo</title><link rel="icon" href="/favicon.svg"><link rel="stylesheet" href="/server.css"></head><body><main>${body}</main></body></html>`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);
}

export const SERVER_CSS = `
body{margin:0;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;background:#f3f5f9;color:#14171f;line-height:1.5}
main{max-width:56rem;margin:0 auto;padding:1.5rem}
h1{font-size:1.6rem}
.card{background:#fff;border:1px solid #d5d9e2;border-radius:12px;padding:1.5rem;margin-bottom:1rem}
button{min-height:48px;padding:0 1.5rem;border-radius:999px;border:0;background:#1747d6;color:#fff;font-weight:600;font-size:1rem;cursor:pointer}
button:focus-visible,a:focus-visible{outline:3px solid #1747d6;outline-offset:2px}
button:disabled{opacity:.6;cursor:progress}
[hidden]{display:none!important}
#session-warning{border-color:#1747d6;box-shadow:0 4px 16px rgba(20,23,31,.15)}
table{border-collapse:collapse;width:100%;background:#fff}
td,th{border:1px solid #d5d9e2;padding:.4rem .6rem;text-align:left;font-size:.9rem;vertical-align:top}
`;
