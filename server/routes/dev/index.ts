import type { FastifyInstance } from 'fastify';
import { outboxRepository } from '../../repositories/outboxRepository';
import { escapeHtml, page } from '../html';

/** Developer pages, registered only outside production: the outbox of SMS and e-mails "sent". */
export async function devRoutes(app: FastifyInstance) {
  const outbox = outboxRepository(app.db);
  app.get('/outbox.json', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return outbox.listNewest();
  });

  app.get('/outbox', { schema: { hide: true } }, async (_request, reply) => {
    const messages = await outbox.listNewest();
    const rows = messages
      .map(
        (message) =>
          `<tr><td>${escapeHtml(message.created_at)}</td><td>${escapeHtml(message.channel)}</td><td>${escapeHtml(message.recipient)}</td><td>${escapeHtml(message.purpose)}</td><td>${escapeHtml(message.text)}</td></tr>`,
      )
      .join('');
    reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
    return page(
      'Outbox',
      `<h1>Outbox</h1><p>Messages the embedded services would have sent (development only). Newest first.</p>
      <table><thead><tr><th>When</th><th>Channel</th><th>To</th><th>Purpose</th><th>Text</th></tr></thead><tbody>${rows}</tbody></table>`,
    );
  });
}
