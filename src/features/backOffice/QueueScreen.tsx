import { useIntl } from 'react-intl';
import { Link, useLocation, useNavigate } from 'react-router';
import { Checkbox, SelectInput, TextInput } from '../../components';
import { ErrorIcon } from '../../components/icons';
import { describeMessages } from '../../i18n/messages';
import { pathOf } from '../../routing/routes';
import { RouteTitle } from '../../routing/RouteTitle';
import { useGetQueueQuery, type QueueEntry, type QueueFilter, type StaffRole } from './backOfficeApi';
import { BackOfficeFrame } from './BackOfficeFrame';
import { refusalMessage } from './refusals';
import { durationParts, valueWords } from './words';

const messages = describeMessages({
  lead: { id: 'backOffice.queue.lead', defaultMessage: 'The target is an answer within {hours} hours of the applicant signing, or of their photos arriving.' },
  filters: { id: 'backOffice.queue.filters', defaultMessage: 'Filter and sort' },
  path: { id: 'backOffice.queue.filter.path', defaultMessage: 'Type of customer' },
  risk: { id: 'backOffice.queue.filter.risk', defaultMessage: 'Risk' },
  awaiting: { id: 'backOffice.queue.filter.awaiting', defaultMessage: 'Waiting for' },
  minWait: { id: 'backOffice.queue.filter.minWait', defaultMessage: 'Waiting at least (hours)' },
  mine: { id: 'backOffice.queue.filter.mine', defaultMessage: 'Only those I can act on' },
  order: { id: 'backOffice.queue.filter.order', defaultMessage: 'Order' },
  any: { id: 'backOffice.queue.filter.any', defaultMessage: 'Any' },
  oldest: { id: 'backOffice.queue.order.oldest', defaultMessage: 'Longest waiting first' },
  newest: { id: 'backOffice.queue.order.newest', defaultMessage: 'Most recent first' },
  caption: { id: 'backOffice.queue.caption', defaultMessage: 'Applications waiting for the bank, {order}' },
  count: { id: 'backOffice.queue.count', defaultMessage: '{count, plural, =0 {No applications match.} one {# application.} other {# applications.}}' },
  applicant: { id: 'backOffice.queue.column.applicant', defaultMessage: 'Applicant' },
  columnPath: { id: 'backOffice.queue.column.path', defaultMessage: 'Type' },
  columnRisk: { id: 'backOffice.queue.column.risk', defaultMessage: 'Risk' },
  columnAwaiting: { id: 'backOffice.queue.column.awaiting', defaultMessage: 'Waiting for' },
  waited: { id: 'backOffice.queue.column.waited', defaultMessage: 'Waiting' },
  approvals: { id: 'backOffice.queue.column.approvals', defaultMessage: 'Approvals' },
  canAct: { id: 'backOffice.queue.column.canAct', defaultMessage: 'You can act' },
  overTarget: { id: 'backOffice.queue.overTarget', defaultMessage: 'Over target' },
  withinTarget: { id: 'backOffice.queue.withinTarget', defaultMessage: 'of {target}' },
  approvalsOf: { id: 'backOffice.queue.approvalsOf', defaultMessage: '{count} of 2' },
  noName: { id: 'backOffice.queue.noName', defaultMessage: 'Name not given yet' },
  loading: { id: 'backOffice.queue.loading', defaultMessage: 'Loading the applications…' },
  noQueue: { id: 'backOffice.queue.noRole', defaultMessage: 'The queue is for reviewers and approvers. Your role does not include it.' },
});

const PATHS = ['freelance', 'company'] as const;
const RISKS = ['low', 'medium', 'high'] as const;
const AWAITING = ['identity-review', 'decision', 'second-approval'] as const;

/** The filter the address holds (so a reload, a shared link or Back keep it), only what the API takes. */
function filterOf(params: URLSearchParams): QueueFilter {
  const pick = <T extends string>(name: string, allowed: readonly T[]) => {
    const value = params.get(name);
    return allowed.includes(value as T) ? (value as T) : undefined;
  };
  const minWait = Number(params.get('minWaitHours'));
  return {
    path: pick('path', PATHS),
    risk: pick('risk', RISKS),
    awaiting: pick('awaiting', AWAITING),
    minWaitHours: params.get('minWaitHours') && Number.isFinite(minWait) && minWait > 0 ? minWait : undefined,
    mine: params.get('mine') === 'true' ? true : undefined,
    order: pick('order', ['oldest', 'newest'] as const),
  };
}

export function QueueScreen() {
  return <BackOfficeFrame>{(roles) => <Queue roles={roles} />}</BackOfficeFrame>;
}

function Queue({ roles }: { roles: readonly StaffRole[] }) {
  const intl = useIntl();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const params = new URLSearchParams(search);
  const filter = filterOf(params);
  const allowed = roles.includes('reviewer') || roles.includes('approver');
  const queue = useGetQueueQuery(filter, { skip: !allowed, refetchOnMountOrArgChange: true });
  const word = (descriptor: keyof typeof valueWords) => intl.formatMessage(valueWords[descriptor]);
  const any = intl.formatMessage(messages.any);

  const set = (name: keyof QueueFilter, value: string | undefined) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    const query = next.toString();
    void navigate({ pathname, search: query ? `?${query}` : '' }, { replace: true });
  };

  return (
    <section className="dv-bo-queue" aria-labelledby="bo-queue-title">
      <RouteTitle name="back-office-queue" id="bo-queue-title" />
      {!allowed ? (
        <p className="dv-bo-notice">{intl.formatMessage(messages.noQueue)}</p>
      ) : (
        <>
          {queue.data && <p className="dv-bo-queue__lead">{intl.formatMessage(messages.lead, { hours: queue.data.targetHours })}</p>}
          <form className="dv-bo-filters" aria-label={intl.formatMessage(messages.filters)} onSubmit={(event) => event.preventDefault()}>
            <SelectInput
              label={intl.formatMessage(messages.path)}
              placeholder={any}
              value={filter.path ?? ''}
              options={PATHS.map((value) => ({ value, label: word(value) }))}
              onChange={(event) => set('path', event.target.value)}
            />
            <SelectInput
              label={intl.formatMessage(messages.risk)}
              placeholder={any}
              value={filter.risk ?? ''}
              options={RISKS.map((value) => ({ value, label: word(value) }))}
              onChange={(event) => set('risk', event.target.value)}
            />
            <SelectInput
              label={intl.formatMessage(messages.awaiting)}
              placeholder={any}
              value={filter.awaiting ?? ''}
              options={AWAITING.map((value) => ({ value, label: word(value) }))}
              onChange={(event) => set('awaiting', event.target.value)}
            />
            <TextInput
              label={intl.formatMessage(messages.minWait)}
              type="number"
              inputMode="numeric"
              min={0}
              step={1}
              value={filter.minWaitHours ?? ''}
              onChange={(event) => set('minWaitHours', event.target.value)}
            />
            <SelectInput
              label={intl.formatMessage(messages.order)}
              placeholder={intl.formatMessage(messages.oldest)}
              value={filter.order === 'newest' ? 'newest' : ''}
              options={[{ value: 'newest', label: intl.formatMessage(messages.newest) }]}
              onChange={(event) => set('order', event.target.value)}
            />
            <div className="dv-bo-filters__check">
              <Checkbox label={intl.formatMessage(messages.mine)} name="mine" checked={filter.mine === true} onChange={(checked) => set('mine', checked ? 'true' : undefined)} />
            </div>
          </form>
          <p className="dv-bo-queue__count" role="status">
            {queue.isFetching && !queue.data ? intl.formatMessage(messages.loading) : queue.data ? intl.formatMessage(messages.count, { count: queue.data.applications.length }) : null}
          </p>
          {queue.isError && <QueueProblem error={queue.error} />}
          {queue.data && queue.data.applications.length > 0 && (
            <QueueTable entries={queue.data.applications} targetHours={queue.data.targetHours} newest={filter.order === 'newest'} />
          )}
        </>
      )}
    </section>
  );
}

function QueueProblem({ error }: { error: unknown }) {
  const intl = useIntl();
  const { descriptor, values } = refusalMessage(error as Parameters<typeof refusalMessage>[0]);
  return (
    <p className="dv-bo-problem" role="alert">
      {intl.formatMessage(descriptor, values)}
    </p>
  );
}

function QueueTable({ entries, targetHours, newest }: { entries: QueueEntry[]; targetHours: number; newest: boolean }) {
  const intl = useIntl();
  const word = (key: keyof typeof valueWords, values?: Record<string, number>) => intl.formatMessage(valueWords[key], values);
  const duration = (hours: number) => {
    const { key, values } = durationParts(hours);
    return word(key, values);
  };
  return (
    // Wide tables scroll on their own on a narrow screen; the page itself does not.
    <div className="dv-bo-table-scroll" role="region" aria-labelledby="bo-queue-caption" tabIndex={0}>
      <table className="dv-bo-table dv-bo-table--queue">
        <caption id="bo-queue-caption" className="dv-bo-visually-hidden">
          {intl.formatMessage(messages.caption, { order: intl.formatMessage(newest ? messages.newest : messages.oldest).toLowerCase() })}
        </caption>
        <thead>
          <tr>
            <th scope="col">{intl.formatMessage(messages.applicant)}</th>
            <th scope="col">{intl.formatMessage(messages.columnPath)}</th>
            <th scope="col">{intl.formatMessage(messages.columnRisk)}</th>
            <th scope="col">{intl.formatMessage(messages.columnAwaiting)}</th>
            <th scope="col" aria-sort={newest ? 'ascending' : 'descending'}>
              {intl.formatMessage(messages.waited)}
            </th>
            <th scope="col">{intl.formatMessage(messages.approvals)}</th>
            <th scope="col">{intl.formatMessage(messages.canAct)}</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.id} className={entry.overTarget ? 'dv-bo-table__over' : undefined}>
              <th scope="row">
                <Link to={pathOf('back-office-application', { id: entry.id })}>{entry.name || intl.formatMessage(messages.noName)}</Link>
              </th>
              <td>{word(entry.path ?? 'noPath')}</td>
              <td>
                <span className={`dv-bo-risk dv-bo-risk--${entry.risk ?? 'none'}`}>{word(entry.risk ?? 'noRisk')}</span>
              </td>
              <td>{word(entry.awaiting)}</td>
              <td>
                <span className="dv-bo-wait">
                  <span className="dv-bo-wait__time">{duration(entry.waitedHours)}</span>{' '}
                  {entry.overTarget ? (
                    <strong className="dv-bo-wait__over">
                      <ErrorIcon aria-hidden="true" /> {intl.formatMessage(messages.overTarget)}
                    </strong>
                  ) : (
                    <span className="dv-bo-wait__target">{intl.formatMessage(messages.withinTarget, { target: duration(targetHours) })}</span>
                  )}
                </span>
              </td>
              <td>{entry.risk === 'high' ? intl.formatMessage(messages.approvalsOf, { count: entry.approvals }) : '—'}</td>
              <td>{word(entry.canAct ? 'yes' : 'no')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
