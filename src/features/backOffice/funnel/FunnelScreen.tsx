// /back-office/funnel: where applicants give up, for a period the member picks (the last 30 days at first), held
// in the address so a reload or a shared link shows the same.
import { useLocation, useNavigate } from 'react-router';
import { RouteTitle } from '../../../routing/RouteTitle';
import { useGetFunnelQuery } from '../backOfficeApi';
import { BackOfficeFrame } from '../BackOfficeFrame';
import { refusalCodeOf } from '../refusals';
import { FunnelView, type FunnelPath, type FunnelPeriod } from './FunnelView';

const PATHS: readonly FunnelPath[] = ['all', 'freelance', 'company'];
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const day = (time: number) => new Date(time).toISOString().slice(0, 10);

/** The period of the address, or the last 30 days (today included) for all applicants. */
function periodOf(params: URLSearchParams, now = Date.now()): FunnelPeriod {
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const path = params.get('path') as FunnelPath;
  return {
    from: DATE.test(from) ? from : day(now - 29 * 86_400_000),
    to: DATE.test(to) ? to : day(now),
    path: PATHS.includes(path) ? path : 'all',
  };
}

export function FunnelScreen() {
  return <BackOfficeFrame>{() => <FunnelPage />}</BackOfficeFrame>;
}

function FunnelPage() {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const period = periodOf(new URLSearchParams(search));
  const funnel = useGetFunnelQuery(period, { refetchOnMountOrArgChange: true });
  return (
    <section className="dv-bo-funnel" aria-labelledby="bo-funnel-title">
      <RouteTitle name="back-office-funnel" id="bo-funnel-title" />
      <FunnelView
        funnel={funnel.data}
        loading={funnel.isFetching}
        error={funnel.isError ? (refusalCodeOf(funnel.error) ?? 'FAILED') : undefined}
        period={period}
        onPeriodChange={(next) => void navigate({ pathname, search: `?${new URLSearchParams({ ...next }).toString()}` }, { replace: true })}
      />
    </section>
  );
}
