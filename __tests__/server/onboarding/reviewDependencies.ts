// What `npm run admin` works with, over a test server, for the suites that review applications.
import { documentsWithLinks } from '../../../scripts/admin';
import type { StaffDependencies } from '../../../scripts/staffCommands';
import { outboxRepository } from '../../../server/repositories/outboxRepository';
import { staffAdditionRepository } from '../../../server/repositories/staffAdditionRepository';
import { outboxSender } from '../../../server/services/messaging/outboxSender';
import type { ReviewDependencies } from '../../../server/services/reviews';
import { loadServerSecret } from '../../../server/services/serverSecret';
import type { startLoginServerOn } from '../login/loginServer';

type Server = Awaited<ReturnType<typeof startLoginServerOn>>;

/**
 * The server's repositories and services as the review uses them, the bank's notices going straight to the
 * provider as `npm run admin` sends them; with `links`, the documents with the links `show` gives.
 */
export function reviewDependenciesOf(server: Server, { links = false }: { links?: boolean } = {}): ReviewDependencies & Pick<StaffDependencies, 'additions'> {
  return {
    db: server.app.db,
    applications: server.app.applications,
    contracts: server.app.contracts,
    identity: server.app.identity,
    signInUsers: server.app.signInUsers,
    auditLog: server.app.auditLog,
    additions: staffAdditionRepository(server.app.db),
    messages: outboxSender(outboxRepository(server.app.db), server.app.clock, server.app.log),
    supportPhone: server.config.supportPhone,
    resumeUrl: `${server.config.publicUrl}/signUp`,
    highRiskCountries: server.app.highRiskCountries,
    evidence: server.app.reviewDependencies.evidence,
    ...(links ? { documents: documentsWithLinks(server.app.db, server.config, loadServerSecret(server.config.dataDir, server.config.serverSecret)) } : {}),
  };
}
