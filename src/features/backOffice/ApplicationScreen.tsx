import { useId, type ReactNode } from 'react';
import { useIntl, type MessageDescriptor } from 'react-intl';
import { Link, useLocation } from 'react-router';
import { pageLocale } from '../../i18n/locale';
import { describeMessages } from '../../i18n/messages';
import { RouteTitle } from '../../routing/RouteTitle';
import { AnswerValue, answerText } from './AnswerValue';
import { useGetApplicationQuery, useGetTemplatesQuery, type ApplicationPage, type StaffApiError, type StaffRole } from './backOfficeApi';
import { BackOfficeFrame, QUEUE_PATH } from './BackOfficeFrame';
import { Decisions } from './Decisions';
import { PersonRequests } from './PersonRequests';
import { refusalMessage } from './refusals';
import { StoredFile } from './StoredFile';
import { valueWords } from './words';

const messages = describeMessages({
  back: { id: 'backOffice.application.back', defaultMessage: 'Back to the applications' },
  loading: { id: 'backOffice.application.loading', defaultMessage: 'Loading the application…' },
  summary: { id: 'backOffice.application.summary', defaultMessage: 'Summary' },
  status: { id: 'backOffice.application.status', defaultMessage: 'Status' },
  path: { id: 'backOffice.application.path', defaultMessage: 'Type of customer' },
  email: { id: 'backOffice.application.email', defaultMessage: 'E-mail' },
  idDocument: { id: 'backOffice.application.idDocument', defaultMessage: 'ID document' },
  language: { id: 'backOffice.application.language', defaultMessage: "Applicant's language" },
  created: { id: 'backOffice.application.created', defaultMessage: 'Started' },
  updated: { id: 'backOffice.application.updated', defaultMessage: 'Last change' },
  currentStep: { id: 'backOffice.application.currentStep', defaultMessage: 'Current step' },
  reference: { id: 'backOffice.application.reference', defaultMessage: 'Reference' },
  review: { id: 'backOffice.application.review', defaultMessage: 'Review' },
  awaiting: { id: 'backOffice.application.awaiting', defaultMessage: 'Waiting for' },
  fourEyes: { id: 'backOffice.application.fourEyes', defaultMessage: 'High risk: this application needs two approvers.' },
  firstApprovedBy: { id: 'backOffice.application.firstApprovedBy', defaultMessage: 'Approved first by {actor} on {date}.' },
  waitingSecond: { id: 'backOffice.application.waitingSecond', defaultMessage: 'Waiting for a second approver.' },
  rejectionSent: { id: 'backOffice.application.rejectionSent', defaultMessage: 'Message sent to the applicant: {template}' },
  risk: { id: 'backOffice.application.risk', defaultMessage: 'Risk' },
  riskLevel: { id: 'backOffice.application.riskLevel', defaultMessage: 'Level: {level}' },
  noReasons: { id: 'backOffice.application.noReasons', defaultMessage: 'No answer raises the risk.' },
  reasonSource: { id: 'backOffice.application.reasonSource', defaultMessage: 'Source: {source}' },
  'politically-exposed': { id: 'backOffice.riskReason.politically-exposed', defaultMessage: 'Politically exposed person' },
  'fatf-call-for-action': { id: 'backOffice.riskReason.fatf-call-for-action', defaultMessage: 'Country on the FATF call-for-action list' },
  'fatf-increased-monitoring': { id: 'backOffice.riskReason.fatf-increased-monitoring', defaultMessage: 'Country under FATF increased monitoring' },
  'watched-origin-of-funds': { id: 'backOffice.riskReason.watched-origin-of-funds', defaultMessage: 'Origin of funds the bank watches' },
  identity: { id: 'backOffice.application.identity', defaultMessage: 'Identity check' },
  identityNone: { id: 'backOffice.application.identityNone', defaultMessage: 'Not started yet.' },
  identityStatus: { id: 'backOffice.application.identityStatus', defaultMessage: 'Result' },
  provider: { id: 'backOffice.application.provider', defaultMessage: 'Checked by' },
  startedAt: { id: 'backOffice.application.startedAt', defaultMessage: 'Started' },
  decidedAt: { id: 'backOffice.application.decidedAt', defaultMessage: 'Decided' },
  reviewer: { id: 'backOffice.application.reviewer', defaultMessage: 'Decided by' },
  identityReason: { id: 'backOffice.application.identityReason', defaultMessage: 'Reason' },
  flags: { id: 'backOffice.application.flags', defaultMessage: 'Flags' },
  documents: { id: 'backOffice.application.documents', defaultMessage: 'Documents' },
  noDocuments: { id: 'backOffice.application.noDocuments', defaultMessage: 'No documents yet.' },
  size: { id: 'backOffice.application.size', defaultMessage: 'Size' },
  fingerprint: { id: 'backOffice.application.fingerprint', defaultMessage: 'SHA-256 fingerprint' },
  evidence: { id: 'backOffice.application.evidence', defaultMessage: 'Stored copy' },
  matches: { id: 'backOffice.evidence.matches', defaultMessage: 'Matches the fingerprint' },
  'does not match': { id: 'backOffice.evidence.changed', defaultMessage: 'Does not match the fingerprint: do not rely on it' },
  missing: { id: 'backOffice.evidence.missing', defaultMessage: 'Missing' },
  'not frozen yet': { id: 'backOffice.evidence.notFrozen', defaultMessage: 'Not frozen yet (before the signature)' },
  contract: { id: 'backOffice.application.contract', defaultMessage: 'Contract' },
  noContract: { id: 'backOffice.application.noContract', defaultMessage: 'Not signed yet.' },
  signedAt: { id: 'backOffice.application.signedAt', defaultMessage: 'Signed' },
  templateVersion: { id: 'backOffice.application.templateVersion', defaultMessage: 'Contract version' },
  contractFile: { id: 'backOffice.application.contractFile', defaultMessage: 'the signed contract' },
  answers: { id: 'backOffice.application.answers', defaultMessage: 'Answers' },
  audit: { id: 'backOffice.application.audit', defaultMessage: 'Audit trail' },
  when: { id: 'backOffice.application.when', defaultMessage: 'When' },
  who: { id: 'backOffice.application.who', defaultMessage: 'Who' },
  what: { id: 'backOffice.application.what', defaultMessage: 'What' },
  note: { id: 'backOffice.application.noteEntry', defaultMessage: 'Note: {text}' },
  reason: { id: 'backOffice.application.reasonEntry', defaultMessage: 'Reason: {text}' },
  inDocuments: { id: 'backOffice.application.inDocuments', defaultMessage: 'Received: see Documents' },
  es: { id: 'backOffice.language.es', defaultMessage: 'Spanish' },
  en: { id: 'backOffice.language.en', defaultMessage: 'English' },
});

const STATUS = describeMessages({
  'in-progress': { id: 'backOffice.status.in-progress', defaultMessage: 'In progress' },
  'pending-review': { id: 'backOffice.status.pending-review', defaultMessage: 'Waiting for the bank' },
  approved: { id: 'backOffice.status.approved', defaultMessage: 'Approved' },
  rejected: { id: 'backOffice.status.rejected', defaultMessage: 'Rejected' },
});

/** The identity check's codes, in the reviewer's words; a code not listed (a provider's own reason) shows as it is. */
const IDENTITY = describeMessages({
  pending: { id: 'backOffice.identity.status.pending', defaultMessage: 'Waiting for the provider' },
  'needs-review': { id: 'backOffice.identity.status.needs-review', defaultMessage: 'Waiting for a reviewer' },
  approved: { id: 'backOffice.identity.status.approved', defaultMessage: 'Confirmed' },
  rejected: { id: 'backOffice.identity.status.rejected', defaultMessage: 'Not confirmed' },
  manual: { id: 'backOffice.identity.provider.manual', defaultMessage: "The bank's reviewers" },
  webhook: { id: 'backOffice.identity.provider.webhook', defaultMessage: 'External identity provider' },
  'no-face-in-selfie': { id: 'backOffice.identity.flag.no-face-in-selfie', defaultMessage: 'No face found in the selfie' },
  'several-faces-in-selfie': { id: 'backOffice.identity.flag.several-faces-in-selfie', defaultMessage: 'More than one face in the selfie' },
  'no-face-on-document': { id: 'backOffice.identity.flag.no-face-on-document', defaultMessage: 'No face found on the front of the ID document' },
  'face-check-failed': { id: 'backOffice.identity.flag.face-check-failed', defaultMessage: 'The faces could not be checked' },
  'id-document-held': { id: 'backOffice.identity.flag.id-document-held', defaultMessage: "The ID document is already verified in another application" },
  'images-missing': { id: 'backOffice.identity.reason.images-missing', defaultMessage: 'Photos missing' },
  'reviewer-rejected': { id: 'backOffice.identity.reason.reviewer-rejected', defaultMessage: 'Not confirmed by a reviewer (the reason is in the audit trail)' },
});

/** The kinds of document, named for the bank (the applicant's own labels say "your"). */
const DOCUMENT_KINDS = describeMessages({
  documentFront: { id: 'backOffice.document.documentFront', defaultMessage: 'Front of the ID document' },
  documentBack: { id: 'backOffice.document.documentBack', defaultMessage: 'Back of the ID document' },
  selfie: { id: 'backOffice.document.selfie', defaultMessage: 'Selfie' },
  model036: { id: 'backOffice.document.model036', defaultMessage: 'Modelo 036 or 037' },
  companyDeeds: { id: 'backOffice.document.companyDeeds', defaultMessage: 'Deeds of incorporation' },
  articlesOfIncorporation: { id: 'backOffice.document.articlesOfIncorporation', defaultMessage: 'Articles of association (estatutos)' },
  model200: { id: 'backOffice.document.model200', defaultMessage: 'Corporate tax return (modelo 200)' },
});

export function ApplicationScreen() {
  // The last part of /back-office/applications/:id (the router's useParams would add to every page's code).
  const id = decodeURIComponent(useLocation().pathname.replace(/\/+$/, '').split('/').pop() ?? '');
  return <BackOfficeFrame>{(roles) => <Application id={id} roles={roles} />}</BackOfficeFrame>;
}

function Section({ title, children, className }: { title: string; children: ReactNode; className?: string }) {
  const id = useId();
  return (
    <section className={['dv-bo-section', className].filter(Boolean).join(' ')} aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

/** Terms and their values; a value that is absent leaves its term out. */
function Facts({ items }: { items: [string, ReactNode][] }) {
  return (
    <dl className="dv-bo-facts">
      {items
        .filter(([, value]) => value !== undefined && value !== null && value !== '')
        .map(([term, value]) => (
          <div key={term} className="dv-bo-facts__row">
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
    </dl>
  );
}

function Application({ id, roles }: { id: string; roles: readonly StaffRole[] }) {
  const intl = useIntl();
  const application = useGetApplicationQuery(id, { refetchOnMountOrArgChange: true });
  const back = (
    <p className="dv-bo-back">
      <Link to={QUEUE_PATH}>{intl.formatMessage(messages.back)}</Link>
    </p>
  );
  if (!application.data) {
    const refused = application.isError ? refusalMessage(application.error as StaffApiError) : undefined;
    return (
      <section className="dv-bo-application" aria-labelledby="bo-application-title">
        {back}
        <RouteTitle name="back-office-application" id="bo-application-title" />
        {refused ? (
          <p className="dv-bo-problem" role="alert">
            {intl.formatMessage(refused.descriptor, refused.values)}
          </p>
        ) : (
          <p role="status">{intl.formatMessage(messages.loading)}</p>
        )}
      </section>
    );
  }
  return <ApplicationView application={application.data} roles={roles} back={back} />;
}

function ApplicationView({ application, roles, back }: { application: ApplicationPage; roles: readonly StaffRole[]; back: ReactNode }) {
  const intl = useIntl();
  /** A code in the words a table gives it, or the code itself when the table has none (own keys only). */
  const inWords = (table: Record<string, MessageDescriptor>, code: string) => (Object.hasOwn(table, code) ? intl.formatMessage(table[code]) : code);
  const when = (iso: string | undefined) => (iso ? intl.formatDate(iso, { dateStyle: 'medium', timeStyle: 'short' }) : undefined);
  const word = (key: keyof typeof valueWords) => intl.formatMessage(valueWords[key]);
  const status = (value: string) => inWords(STATUS, value);
  const identityWord = (code: string | undefined) => code && inWords(IDENTITY, code);
  const documentName = (kind: string) => inWords(DOCUMENT_KINDS, kind);
  const { data: templates } = useGetTemplatesQuery();
  const rejectionTemplate = templates?.find((template) => template.id === application.review.rejection?.templateId);
  const auditTitle = useId();
  const { review, risk } = application;
  const approvals = review.approvals ?? [];
  // A risk reason names its answer by field: the label the applicant saw, where the answers have it.
  const labels = new Map(application.steps.flatMap((step) => step.fields.map((field) => [field.field, field.label] as const)));
  const documentKinds = new Set(application.documents.map((document) => document.kind));
  const labelOf = (field: string) => (labels.has(field) ? intl.formatMessage({ id: labels.get(field)! }) : field);

  return (
    <article className="dv-bo-application" aria-labelledby="bo-application-title">
      {back}
      <RouteTitle name="back-office-application" id="bo-application-title" />
      <p className="dv-bo-application__name">{application.applicant.name || application.applicant.email}</p>
      <div className="dv-bo-application__layout">
        <div className="dv-bo-application__main">
          <Section title={intl.formatMessage(messages.summary)}>
            <Facts
              items={[
                [intl.formatMessage(messages.status), status(application.status)],
                [intl.formatMessage(messages.path), word(application.path ?? 'noPath')],
                [intl.formatMessage(messages.email), application.applicant.email],
                [intl.formatMessage(messages.idDocument), application.applicant.idDocument],
                [intl.formatMessage(messages.language), intl.formatMessage(messages[application.language === 'es' ? 'es' : 'en'])],
                [intl.formatMessage(messages.created), when(application.createdAt)],
                [intl.formatMessage(messages.updated), when(application.updatedAt)],
                [intl.formatMessage(messages.currentStep), `routes.${application.currentStep}.title` in intl.messages ? intl.formatMessage({ id: `routes.${application.currentStep}.title` }) : application.currentStep],
                [intl.formatMessage(messages.reference), <code key="id">{application.id}</code>],
              ]}
            />
          </Section>

          <Section title={intl.formatMessage(messages.risk)}>
            <p className="dv-bo-risk-level">
              <span className={`dv-bo-risk dv-bo-risk--${risk.level ?? 'none'}`}>{intl.formatMessage(messages.riskLevel, { level: word(risk.level ?? 'noRisk') })}</span>
            </p>
            {risk.reasons.length === 0 ? (
              <p>{intl.formatMessage(messages.noReasons)}</p>
            ) : (
              <ul className="dv-bo-reasons">
                {risk.reasons.map((reason, index) => (
                  <li key={index}>
                    <strong>{intl.formatMessage(messages[reason.kind])}</strong> ({word(reason.level)}): {labelOf(reason.field)} —{' '}
                    {answerText(intl, reason.field, labels.get(reason.field) ?? '', reason.value)}
                    <br />
                    <span className="dv-bo-muted">{intl.formatMessage(messages.reasonSource, { source: reason.source })}</span>
                  </li>
                ))}
              </ul>
            )}
          </Section>

          <Section title={intl.formatMessage(messages.identity)}>
            {application.identityCheck ? (
              <Facts
                items={[
                  [intl.formatMessage(messages.identityStatus), identityWord(application.identityCheck.status)],
                  [intl.formatMessage(messages.provider), identityWord(application.identityCheck.provider)],
                  [intl.formatMessage(messages.startedAt), when(application.identityCheck.startedAt)],
                  [intl.formatMessage(messages.decidedAt), when(application.identityCheck.decidedAt)],
                  [intl.formatMessage(messages.reviewer), application.identityCheck.reviewer],
                  [intl.formatMessage(messages.identityReason), identityWord(application.identityCheck.reason)],
                  [
                    intl.formatMessage(messages.flags),
                    application.identityCheck.flags?.length ? (
                      <ul key="flags" className="dv-bo-flags">
                        {application.identityCheck.flags.map((flag) => (
                          <li key={flag}>{identityWord(flag)}</li>
                        ))}
                      </ul>
                    ) : undefined,
                  ],
                ]}
              />
            ) : (
              <p>{intl.formatMessage(messages.identityNone)}</p>
            )}
          </Section>

          <Section title={intl.formatMessage(messages.documents)}>
            {application.documents.length === 0 ? (
              <p>{intl.formatMessage(messages.noDocuments)}</p>
            ) : (
              <ul className="dv-bo-documents">
                {application.documents.map((document) => {
                  const usable = document.evidence === 'matches' || document.evidence === 'not frozen yet';
                  return (
                    <li key={document.kind} className="dv-bo-document">
                      <h3>{documentName(document.kind)}</h3>
                      <Facts
                        items={[
                          [intl.formatMessage(messages.size), intl.formatNumber(document.size / 1024, { style: 'unit', unit: 'kilobyte', maximumFractionDigits: 0 })],
                          [intl.formatMessage(messages.fingerprint), document.sha256 && <code className="dv-bo-hash">{document.sha256}</code>],
                          [
                            intl.formatMessage(messages.evidence),
                            <span key="evidence" className={usable ? undefined : 'dv-bo-evidence--bad'}>
                              {intl.formatMessage(messages[document.evidence])}
                            </span>,
                          ],
                        ]}
                      />
                      {usable && <StoredFile path={`applications/${application.id}/documents/${encodeURIComponent(document.kind)}`} name={documentName(document.kind)} />}
                    </li>
                  );
                })}
              </ul>
            )}
          </Section>

          <Section title={intl.formatMessage(messages.contract)}>
            {application.contract ? (
              <>
                <Facts
                  items={[
                    [intl.formatMessage(messages.signedAt), when(application.contract.signedAt)],
                    [intl.formatMessage(messages.templateVersion), application.contract.templateVersion],
                    [intl.formatMessage(messages.fingerprint), <code key="sha" className="dv-bo-hash">{application.contract.sha256}</code>],
                  ]}
                />
                <StoredFile path={`applications/${application.id}/contract`} name={intl.formatMessage(messages.contractFile)} />
              </>
            ) : (
              <p>{intl.formatMessage(messages.noContract)}</p>
            )}
          </Section>

          <Section title={intl.formatMessage(messages.answers)}>
            {application.steps.map((step) => (
              <section key={step.step} className="dv-bo-step" aria-labelledby={`bo-step-${step.step}`}>
                <h3 id={`bo-step-${step.step}`}>{`routes.${step.step}.title` in intl.messages ? intl.formatMessage({ id: `routes.${step.step}.title` }) : step.step}</h3>
                <Facts
                  items={step.fields.map((field) => [
                    intl.formatMessage({ id: field.label }),
                    // An uploaded file's answer is its storage key: the file itself is under Documents.
                    documentKinds.has(field.field) ? intl.formatMessage(messages.inDocuments) : <AnswerValue key={field.field} {...field} />,
                  ])}
                />
              </section>
            ))}
          </Section>

          {/* The table's scrolling region is the section: one name for a screen reader, not two. */}
          <div className="dv-bo-section">
            <h2 id={auditTitle}>{intl.formatMessage(messages.audit)}</h2>
            <div className="dv-bo-table-scroll" role="region" aria-labelledby={auditTitle} tabIndex={0}>
              <table className="dv-bo-table dv-bo-table--compact">
                <thead>
                  <tr>
                    <th scope="col">{intl.formatMessage(messages.when)}</th>
                    <th scope="col">{intl.formatMessage(messages.who)}</th>
                    <th scope="col">{intl.formatMessage(messages.what)}</th>
                  </tr>
                </thead>
                <tbody>
                  {application.audit.map((entry) => (
                    <tr key={entry.id}>
                      <td>{when(entry.occurredAt)}</td>
                      <td>{entry.actor.replace(/^staff:/, '')}</td>
                      <td>
                        <code>{entry.action}</code>
                        {typeof entry.details?.note === 'string' && <p className="dv-bo-audit-text">{intl.formatMessage(messages.note, { text: entry.details.note })}</p>}
                        {typeof entry.details?.reason === 'string' && <p className="dv-bo-audit-text">{intl.formatMessage(messages.reason, { text: entry.details.reason })}</p>}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </div>
        </div>

        <aside className="dv-bo-application__side" aria-labelledby="bo-review-title">
          <h2 id="bo-review-title">{intl.formatMessage(messages.review)}</h2>
          <Facts
            items={[
              [intl.formatMessage(messages.status), status(application.status)],
              [intl.formatMessage(messages.awaiting), word(review.awaiting ?? 'nothing')],
            ]}
          />
          {risk.fourEyes && (
            <div className="dv-bo-four-eyes">
              <p>
                <strong>{intl.formatMessage(messages.fourEyes)}</strong>
              </p>
              {approvals.map((approval) => (
                <p key={approval.actor}>{intl.formatMessage(messages.firstApprovedBy, { actor: approval.actor.replace(/^staff:/, ''), date: when(approval.at) })}</p>
              ))}
              {review.awaiting === 'second-approval' && <p>{intl.formatMessage(messages.waitingSecond)}</p>}
            </div>
          )}
          {review.rejection && (
            <div className="dv-bo-sent">
              <p>{intl.formatMessage(messages.rejectionSent, { template: rejectionTemplate ? rejectionTemplate.title[pageLocale(intl.locale)] : review.rejection.templateId })}</p>
              {/* In the applicant's language, which a screen reader should read it in. */}
              <blockquote lang={application.language}>{review.rejection.text}</blockquote>
            </div>
          )}
          <Decisions application={application} roles={roles} />
          <PersonRequests id={application.id} roles={roles} />
        </aside>
      </div>
    </article>
  );
}
