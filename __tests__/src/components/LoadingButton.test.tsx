import { screen } from '@testing-library/react';
import { LoadingButton, INVALID_COLOR_MESSAGE, type ButtonColor } from '../../../src/components';
import { renderWithIntl } from './renderWithIntl';

describe('LoadingButton', () => {
  it('calls onClick and is a plain button by default', async () => {
    const onClick = jest.fn();
    const { user } = renderWithIntl(<LoadingButton onClick={onClick}>Continuar</LoadingButton>);
    const button = screen.getByRole('button', { name: 'Continuar' });
    expect(button).toHaveAttribute('type', 'button');
    expect(button).not.toHaveAttribute('aria-busy');
    await user.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('accepts its text as a prop and passes the type through', () => {
    renderWithIntl(<LoadingButton text="Entrar" type="submit" />);
    expect(screen.getByRole('button', { name: 'Entrar' })).toHaveAttribute('type', 'submit');
  });

  it('while loading is disabled, busy and shows the nine-cube logo named Cargando', async () => {
    const onClick = jest.fn();
    const { user } = renderWithIntl(
      <LoadingButton loading onClick={onClick}>
        Continuar
      </LoadingButton>,
    );
    const button = screen.getByRole('button', { name: 'Cargando' });
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-busy', 'true');
    const logo = screen.getByRole('img', { name: 'Cargando' });
    expect(logo.children).toHaveLength(9);
    await user.click(button);
    expect(onClick).not.toHaveBeenCalled();
  });

  it('names the logo in English too', () => {
    renderWithIntl(<LoadingButton loading>Continue</LoadingButton>, { locale: 'en' });
    expect(screen.getByRole('img', { name: 'Loading' })).toBeInTheDocument();
  });

  it('is disabled without loading when asked', () => {
    renderWithIntl(<LoadingButton disabled>Continuar</LoadingButton>);
    expect(screen.getByRole('button', { name: 'Continuar' })).toBeDisabled();
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
  });

  it.each<[ButtonColor | undefined, string]>([
    [undefined, 'dv-button--blue'],
    ['blue', 'dv-button--blue'],
    ['gray', 'dv-button--gray'],
  ])('colour %s gives class %s', (color, className) => {
    renderWithIntl(<LoadingButton color={color}>Ok</LoadingButton>);
    expect(screen.getByRole('button', { name: 'Ok' })).toHaveClass(className);
  });

  it('throws the exact message for any other colour', () => {
    // React reports the render error on the console as well; keep the test output clean.
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    const reportError = jest.fn((event: ErrorEvent) => event.preventDefault());
    window.addEventListener('error', reportError);
    try {
      expect(INVALID_COLOR_MESSAGE).toBe("Valid values for prop color are: 'gray' and 'blue'");
      expect(() => renderWithIntl(<LoadingButton color={'red' as ButtonColor}>Ok</LoadingButton>)).toThrow(
        new Error("Valid values for prop color are: 'gray' and 'blue'"),
      );
    } finally {
      window.removeEventListener('error', reportError);
      consoleError.mockRestore();
    }
  });
});
