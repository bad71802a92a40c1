import { act, fireEvent, screen } from '@testing-library/react';
import { Toast } from '../../../src/components';
import { renderWithIntl } from './renderWithIntl';

describe('Toast', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const setup = (ui: React.ReactElement, locale: 'es' | 'en' = 'es') =>
    renderWithIntl(ui, { locale, user: { advanceTimers: jest.advanceTimersByTime } });

  it('shows nothing without a message', () => {
    setup(<Toast message={null} onClose={() => {}} />);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('announces an error as an alert and closes itself after 5000 ms, not before', () => {
    const onClose = jest.fn();
    setup(<Toast message="Usuario o contraseña incorrectos" kind="error" onClose={onClose} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Usuario o contraseña incorrectos');

    act(() => jest.advanceTimersByTime(4999));
    expect(onClose).not.toHaveBeenCalled();
    act(() => jest.advanceTimersByTime(1));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('uses the timeout it is given', () => {
    const onClose = jest.fn();
    setup(<Toast message="Guardado" kind="success" autoCloseMs={1000} onClose={onClose} />);
    act(() => jest.advanceTimersByTime(999));
    expect(onClose).not.toHaveBeenCalled();
    act(() => jest.advanceTimersByTime(1));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('announces other kinds politely as a status', () => {
    setup(<Toast message="Te hemos enviado un código" kind="info" onClose={() => {}} />);
    expect(screen.getByRole('status')).toHaveTextContent('Te hemos enviado un código');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('closes with its close button', async () => {
    const onClose = jest.fn();
    const { user } = setup(<Toast message="Error" kind="error" onClose={onClose} />);
    await user.click(screen.getByRole('button', { name: 'Cerrar aviso' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('labels the close button in English', () => {
    setup(<Toast message="Error" kind="error" onClose={() => {}} />, 'en');
    expect(screen.getByRole('button', { name: 'Close notification' })).toBeInTheDocument();
  });

  it('closes on Escape while focus is inside, and does not close itself meanwhile', async () => {
    const onClose = jest.fn();
    const { user } = setup(<Toast message="Error" kind="error" onClose={onClose} />);
    const close = screen.getByRole('button', { name: 'Cerrar aviso' });
    act(() => close.focus());
    act(() => jest.advanceTimersByTime(10000));
    expect(onClose).not.toHaveBeenCalled();

    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('ignores Escape when focus is elsewhere', async () => {
    const onClose = jest.fn();
    const { user } = setup(<Toast message="Error" kind="error" autoCloseMs={0} onClose={onClose} />);
    await user.keyboard('{Escape}');
    expect(onClose).not.toHaveBeenCalled();
  });

  it('waits while the pointer is over it and starts the countdown again when it leaves', () => {
    const onClose = jest.fn();
    setup(<Toast message="Error" kind="error" onClose={onClose} />);
    const toast = screen.getByRole('alert').parentElement!;
    act(() => jest.advanceTimersByTime(3000));
    fireEvent.mouseEnter(toast);
    act(() => jest.advanceTimersByTime(10000));
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.mouseLeave(toast);
    act(() => jest.advanceTimersByTime(4999));
    expect(onClose).not.toHaveBeenCalled();
    act(() => jest.advanceTimersByTime(1));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('starts a new countdown for a new message', () => {
    const onClose = jest.fn();
    const { rerender } = setup(<Toast message="Primero" onClose={onClose} />);
    act(() => jest.advanceTimersByTime(4000));
    rerender(<Toast message="Segundo" onClose={onClose} />);
    act(() => jest.advanceTimersByTime(4999));
    expect(onClose).not.toHaveBeenCalled();
    act(() => jest.advanceTimersByTime(1));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('keeps its countdown when only the onClose function changes', () => {
    const first = jest.fn();
    const second = jest.fn();
    const { rerender } = setup(<Toast message="Error" onClose={first} />);
    act(() => jest.advanceTimersByTime(4000));
    rerender(<Toast message="Error" onClose={second} />);
    act(() => jest.advanceTimersByTime(1000));
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledTimes(1);
  });
});
