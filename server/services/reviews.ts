// The bank's review of applications (npm run admin): list them, look at one, approve or reject it. Only a
// signed application (pending review) can be approved; approval lets the customer sign in (the identity
// service's onboarding status) and tells them by e-mail.
import type { Kysely } from 'kysely';
import type { Database } from '../db';
import type { AuditLogRepository } from '../repositories/auditLogRepository';
import type { Application, ApplicationRepository } from '../repositories/applicationRepository';
import type { ContractRepository } from '../repositories/contractRepository';
import type { IdentityService } from './identity';
import type { MessageSender } from './messaging/types';
import { ONBOARDING_STATUS_ATTRIBUTE } from './onboardingGate';
import { currentStepOf } from './onboardingApplications';

export interface ReviewDependencies {
  db: Kysely<Database>;
  /** The application's checked documents, each with a link that works for a few minutes. */
  documents?: (applicationId: string) => Promise<{ kind: string; key: string; size: number; checkedAt: string; link: string }[]>;
  applications: ApplicationRepository;
  contracts: ContractRepository;
  identity: Pick<IdentityService, 'updateAttributes'>;
  auditLog: AuditLogRepository;
  messages: MessageSender;
}

export class ReviewError extends Error {}

export interface ApplicationSummary {
  id: string;
  status: string;
  path: string;
  risk: string;
  step: string;
  ageDays: number;
  email: string;
}

/** Every application, newest first: status, path, risk, where it stands and how old it is. */
export async function listApplications(deps: Pick<ReviewDependencies, 'db' | 'applications'>, now: Date): Promise<ApplicationSummary[]> {
  const rows = await deps.db.selectFrom('onboarding_applications').select('id').orderBy('created_at', 'desc').execute();
  const applications = await Promise.all(rows.map((row) => deps.applications.find(row.id)));
  return applications
    .filter((application): application is Application => application !== undefined)
    .map((application) => ({
      id: application.id,
      status: application.status,
      path: application.personType ?? '-',
      risk: application.riskfactor ?? '-',
      step: currentStepOf(application),
      ageDays: Math.floor((now.getTime() - Date.parse(application.createdAt)) / 86_400_000),
      email: application.email,
    }));
}

const NOTICES = {
  approved: {
    es: { subject: 'Tu cuenta Divilo está lista', text: 'Hemos revisado tu solicitud y tu cuenta Divilo está lista. Ya puedes entrar con tu DNI o NIE, tu contraseña y el código que te enviaremos por SMS.' },
    en: { subject: 'Your Divilo account is ready', text: 'We have reviewed your application and your Divilo account is ready. You can now log in with your ID document, your password and the code we will text you.' },
  },
  rejected: {
    es: { subject: 'Tu solicitud en Divilo', text: 'Hemos revisado tu solicitud y no podemos abrir tu cuenta en este momento. Si tienes preguntas, llámanos de lunes a viernes de 9:00 a 18:00.' },
    en: { subject: 'Your Divilo application', text: 'We have reviewed your application and cannot open your account at this time. If you have questions, call us Monday to Friday, 9:00 to 18:00.' },
  },
} as const;

async function decide(deps: ReviewDependencies, id: string, decision: 'approved' | 'rejected', reviewer: string, now: Date, reason?: string): Promise<Application> {
  const application = await deps.applications.find(id);
  if (!application) throw new ReviewError(`No application ${id}`);
  if (application.status === 'approved' || application.status === 'rejected') throw new ReviewError(`Application ${id} was ${application.status} already`);
  if (decision === 'approved' && application.status !== 'pending-review') throw new ReviewError(`Application ${id} is ${application.status}: only a signed application (pending-review) can be approved`);
  const saved = await deps.applications.save(application, { status: decision }, now);
  if (!saved) throw new ReviewError(`Application ${id} changed meanwhile: try again`);
  if (application.answers.identityUserSub !== undefined) {
    await deps.identity.updateAttributes(application.idDocument, { [ONBOARDING_STATUS_ATTRIBUTE]: decision === 'approved' ? 'complete' : 'rejected' });
  }
  const subject = `application:${id}`;
  await deps.auditLog.append({ actor: `reviewer:${reviewer}`, action: `onboarding.review_${decision}`, subject, details: reason ? { reason } : undefined }, now);
  const notice = NOTICES[decision][application.language];
  await deps.messages.send({ channel: 'email', to: application.email, purpose: 'notice', subject: notice.subject, text: notice.text });
  return saved;
}

/** Approves an application: the customer can sign in from now on, and is told so. */
export const approveApplication = (deps: ReviewDependencies, id: string, reviewer: string, now = new Date()) => decide(deps, id, 'approved', reviewer, now);

/** Rejects an application with the reason the bank records (the customer is told without it). */
export async function rejectApplication(deps: ReviewDependencies, id: string, reason: string, reviewer: string, now = new Date()): Promise<Application> {
  if (!reason.trim()) throw new ReviewError('A rejection needs a reason');
  return decide(deps, id, 'rejected', reviewer, now, reason.trim());
}
