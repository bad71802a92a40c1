// The login form's rules come in a chunk of their own, fetched when the form is first focused or checked. A
// connection that drops before they arrive must not leave Log in doing nothing: the form goes on without its own
// checks, and the sign-in itself refuses what is wrong.
import { screen, waitFor } from '@testing-library/react';
import { renderApp } from '../../app/renderApp';
import { withSignedOutApi } from '../../services/testServer';

jest.mock('../../../../src/features/login/loginRules', () => {
  throw new Error('Loading chunk login-rules failed');
});

withSignedOutApi();

it('Log in goes on to the sign-in when the form’s rules cannot be fetched', async () => {
  const { store, user } = renderApp('/login');
  await user.type(await screen.findByLabelText('ID document (DNI or NIE)'), '12');
  await user.click(screen.getByRole('button', { name: 'Log in' }));
  // The submit went on to the captcha (which this test server does not serve: its failure is the toast), with no
  // field held back for its length, as the rules would have done.
  await waitFor(() => expect(store.recorder.entries().map(({ action }) => action.type)).toContain('ui/toastShown'));
  expect(screen.getByLabelText('ID document (DNI or NIE)')).not.toHaveAttribute('aria-invalid');
  expect(screen.queryByText('This field should be at least 4 characters long')).not.toBeInTheDocument();
});
