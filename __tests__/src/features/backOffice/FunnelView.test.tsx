import { screen, waitFor, within } from '@testing-library/react';
import { FunnelView, type FunnelData, type FunnelPeriod } from '../../../../src/features/backOffice/funnel/FunnelView';
import { renderWithIntl, type TestLocale } from '../../components/renderWithIntl';

const PERIOD: FunnelPeriod = { from: '2025-03-01', to: '2025-03-31', path: 'company' };

// As GET /staff-api/funnel answers it: `to` is the day after the last one counted.
const FUNNEL: FunnelData = {
  from: '2025-03-01T00:00:00.000Z',
  to: '2025-04-01T00:00:00.000Z',
  path: 'company',
  started: 1200,
  steps: [
    { step: 'signUp', reached: 1200, stoppedHere: 0, medianSeconds: null },
    { step: 'reg-code', reached: 1100, stoppedHere: 100, medianSeconds: 45 },
    { step: 'about-company', reached: 600, stoppedHere: 40, medianSeconds: 180 },
    { step: 'tell-us-more-company', reached: 300, stoppedHere: 12, medianSeconds: 3900 },
    { step: 'docu-sign', reached: 250, stoppedHere: 7, medianSeconds: 2 * 86_400 + 4 * 3600 + 600 },
  ],
  decisions: [
    { decision: 'approved', count: 180, medianWaitSeconds: 5 * 3600 },
    { decision: 'rejected', count: 0, medianWaitSeconds: null },
  ],
};

function renderFunnel(props: Partial<Parameters<typeof FunnelView>[0]> = {}, locale: TestLocale = 'en') {
  const onPeriodChange = jest.fn();
  const rendered = renderWithIntl(<FunnelView funnel={FUNNEL} loading={false} period={PERIOD} onPeriodChange={onPeriodChange} {...props} />, { locale });
  return { onPeriodChange, ...rendered };
}

/** The cells of a table's rows, each row headed by its <th>. */
const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent!.replace(/\s/g, ' ')));

describe('FunnelView', () => {
  it('gives the numbers of each step in a table, with the share of those who signed up and human durations', () => {
    renderFunnel();
    const table = screen.getByRole('table', { name: 'Steps, from Mar 1, 2025 to Mar 31, 2025 (Companies)' });
    expect(within(table).getAllByRole('columnheader').map((header) => header.textContent)).toEqual(['Step', 'Finished', '% of those who signed up', 'Stopped here', 'Median time']);
    expect(rowsOf(table)).toEqual([
      ['Open your Divilo account', '1,200', '100%', '0', '—not measured'],
      ['Check your e-mail', '1,100', '91.7%', '100', '45 sec'],
      ['Your company', '600', '50%', '40', '3 min'],
      ['Tell us more', '300', '25%', '12', '1 hr 5 min'],
      ['Sign your contract', '250', '20.8%', '7', '2 days 4 hr'],
    ]);
    expect(within(table).getAllByRole('rowheader')).toHaveLength(5);
    expect(screen.getByText('1,200 applicants signed up from Mar 1, 2025 to Mar 31, 2025 (Companies).')).toBeInTheDocument();
  });

  it('gives the decisions with their median wait, "—" read as words where nobody waited', () => {
    renderFunnel();
    const table = screen.getByRole('table', { name: 'Decisions taken from Mar 1, 2025 to Mar 31, 2025 (Companies)' });
    expect(rowsOf(table)).toEqual([
      ['Approved', '180', '5 hr'],
      ['Rejected', '0', '—not measured'],
    ]);
    expect(within(table).getByText('—')).toHaveAttribute('aria-hidden', 'true');
  });

  it('speaks Spanish: numbers, dates and durations as a Spanish reader writes them', () => {
    renderFunnel({}, 'es');
    const table = screen.getByRole('table', { name: /^Pasos, del 1 mar 2025 al 31 mar 2025 \(Empresas\)$/ });
    expect(rowsOf(table)[1]).toEqual(['Revisa tu correo electrónico', '1100', '91,7 %', '100', '45 s']);
    expect(rowsOf(table)[3]).toEqual([expect.any(String), '300', '25 %', '12', '1 h 5 min']);
    expect(rowsOf(table)[4][4]).toBe('2 d 4 h');
    expect(screen.getByText(/^Se registraron 1200 solicitantes del/)).toBeInTheDocument();
  });

  it('names whose path a step is when both paths are shown, where two steps share a title', () => {
    const both = { ...FUNNEL, path: 'all' as const, steps: [...FUNNEL.steps, { step: 'tell-us-more-freelance', reached: 20, stoppedHere: 1, medianSeconds: 60 }] };
    renderFunnel({ funnel: both, period: { ...PERIOD, path: 'all' } });
    const table = screen.getByRole('table', { name: /^Steps/ });
    expect(within(table).getByRole('rowheader', { name: 'Tell us more (companies)' })).toBeInTheDocument();
    expect(within(table).getByRole('rowheader', { name: 'Tell us more (freelancers)' })).toBeInTheDocument();
    expect(within(table).getByRole('rowheader', { name: 'Open your Divilo account' })).toBeInTheDocument();
  });

  it('draws the chart for the eye only, each bar as long as its share, those who stopped marked after it', () => {
    const { container } = renderFunnel();
    const chart = container.querySelector('.dv-funnel__chart')!;
    expect(chart).toHaveAttribute('aria-hidden', 'true');
    const bars = [...chart.querySelectorAll('.dv-funnel__bar-track')];
    expect(bars).toHaveLength(5);
    // The longest is the 1,200 who signed up; 600 finished "Your company" and 40 stopped on it.
    const [reached, stopped] = bars[2].querySelectorAll('rect');
    expect(reached).toHaveAttribute('width', '50%');
    expect(stopped).toHaveAttribute('x', '50%');
    expect(Number.parseFloat(stopped.getAttribute('width')!)).toBeCloseTo((40 / 1200) * 100);
    expect(stopped.getAttribute('fill')).toMatch(/^url\(#funnel-stopped-[A-Za-z0-9]+\)$/);
    expect(container.querySelector(`pattern#${stopped.getAttribute('fill')!.slice(5, -1)}`)).not.toBeNull();
  });

  it('lets the table scroll in a frame of its own that a keyboard can reach', () => {
    renderFunnel();
    const frame = screen.getByRole('region', { name: /^Steps, from/ });
    expect(frame).toHaveAttribute('tabindex', '0');
    expect(within(frame).getByRole('table')).toBeInTheDocument();
  });

  it('sends the period chosen once it is valid', async () => {
    const { user, onPeriodChange } = renderFunnel();
    await user.clear(screen.getByLabelText('From'));
    await user.type(screen.getByLabelText('From'), '2024-04-01');
    await user.clear(screen.getByLabelText('To (included)'));
    await user.type(screen.getByLabelText('To (included)'), '2025-03-31');
    await user.selectOptions(screen.getByLabelText('Applicants'), 'freelance');
    await user.click(screen.getByRole('button', { name: 'Show' }));
    expect(onPeriodChange).toHaveBeenCalledWith({ from: '2024-04-01', to: '2025-03-31', path: 'freelance' });
  });

  it('refuses a period that ends before it starts, saying why on the field, and sends nothing', async () => {
    const { user, onPeriodChange } = renderFunnel();
    await user.clear(screen.getByLabelText('To (included)'));
    await user.type(screen.getByLabelText('To (included)'), '2025-02-28');
    await user.click(screen.getByRole('button', { name: 'Show' }));
    const to = screen.getByLabelText('To (included)');
    expect(to).toHaveAccessibleDescription('The period cannot end before it starts');
    await waitFor(() => expect(to).toHaveFocus());
    expect(onPeriodChange).not.toHaveBeenCalled();
  });

  it('refuses a period of more than 366 days, as the bank does, in Spanish too', async () => {
    const { user, onPeriodChange } = renderFunnel({}, 'es');
    await user.clear(screen.getByLabelText('Desde'));
    await user.type(screen.getByLabelText('Desde'), '2024-03-30');
    await user.click(screen.getByRole('button', { name: 'Mostrar' }));
    expect(screen.getByLabelText('Hasta (incluido)')).toHaveAccessibleDescription('Un periodo tiene como máximo 366 días');
    expect(onPeriodChange).not.toHaveBeenCalled();
    // 2024-03-31 to 2025-03-31, both included, is 366 days: taken.
    await user.clear(screen.getByLabelText('Desde'));
    await user.type(screen.getByLabelText('Desde'), '2024-03-31');
    await user.click(screen.getByRole('button', { name: 'Mostrar' }));
    expect(onPeriodChange).toHaveBeenCalledWith({ ...PERIOD, from: '2024-03-31' });
  });

  it('asks for both dates', async () => {
    const { user, onPeriodChange } = renderFunnel();
    await user.clear(screen.getByLabelText('From'));
    await user.click(screen.getByRole('button', { name: 'Show' }));
    expect(screen.getByLabelText('From')).toHaveAccessibleDescription('This field is required');
    expect(onPeriodChange).not.toHaveBeenCalled();
  });

  it('says it is counting, and why nothing came, in words', () => {
    const { rerender } = renderFunnel({ funnel: undefined, loading: true });
    expect(screen.getByRole('status')).toHaveTextContent('Counting the applicants of the period…');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const props = { funnel: undefined, loading: false, period: PERIOD, onPeriodChange: jest.fn() };
    rerender(<FunnelView {...props} error="INVALID_PERIOD" />);
    expect(screen.getByRole('alert')).toHaveTextContent('The bank does not count this period: choose one of at most 366 days that ends after it starts.');
    rerender(<FunnelView {...props} error="ROLE_REQUIRED" />);
    expect(screen.getByRole('alert')).toHaveTextContent('Your role does not let you see the funnel.');
    rerender(<FunnelView {...props} error="Request failed with status code 500" />);
    expect(screen.getByRole('alert')).toHaveTextContent('The funnel could not be loaded. Try again in a moment.');
  });

  it('keeps the last numbers while the next period loads, marked busy', () => {
    renderFunnel({ loading: true });
    expect(screen.getByRole('table', { name: /^Steps/ }).closest('[aria-busy]')).toHaveAttribute('aria-busy', 'true');
  });

  it('says so when nobody signed up, with no share to give', () => {
    const empty = { ...FUNNEL, started: 0, steps: FUNNEL.steps.map((step) => ({ ...step, reached: 0, stoppedHere: 0, medianSeconds: null })) };
    renderFunnel({ funnel: empty });
    expect(screen.getByText(/^Nobody signed up from/)).toBeInTheDocument();
    expect(rowsOf(screen.getByRole('table', { name: /^Steps/ }))[0]).toEqual(['Open your Divilo account', '0', '—not measured', '0', '—not measured']);
  });
});
