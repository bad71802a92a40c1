import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { IntlProvider } from 'react-intl';
import { useFormik } from 'formik';
import { object, string } from 'yup';
import { CodeInput, DocumentNumberInput } from '../../../src/components';
import { useFormFields } from '../../../src/forms/useFormFields';
import { rules, validateSchema } from '../../../src/validation';
import { renderWithIntl } from '../components/renderWithIntl';

const schema = object({
  userId: string().test(rules.required()).test(rules.identificationDocument()),
  code: string().test(rules.required()).test(rules.userCode()),
});

function CodeForm({ onSubmit }: { onSubmit: (values: { userId: string; code: string }) => void }) {
  const formik = useFormik({
    initialValues: { userId: '', code: '' },
    validate: (values) => validateSchema(schema, values),
    validateOnChange: false,
    onSubmit,
  });
  const field = useFormFields(formik, ['userId', 'code']);
  return (
    <form noValidate onSubmit={formik.handleSubmit}>
      <DocumentNumberInput label="DNI" {...field('userId')} />
      <CodeInput label="Código" {...field('code')} />
      <button type="submit">Enviar</button>
    </form>
  );
}

describe('form fields bound with useFormFields', () => {
  it('give the ID document and the code fields the keyboard and autofill a phone needs', () => {
    renderWithIntl(<CodeForm onSubmit={jest.fn()} />);
    const userId = screen.getByRole('textbox', { name: 'DNI' });
    expect(userId).toHaveAttribute('autocomplete', 'username');
    expect(userId).toHaveAttribute('autocapitalize', 'characters');
    expect(userId).toHaveAttribute('spellcheck', 'false');
    const code = screen.getByRole('textbox', { name: 'Código' });
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveAttribute('maxlength', '6');
  });

  it('after a failed submit show translated errors and move focus to the first invalid field', async () => {
    const onSubmit = jest.fn();
    const { user } = renderWithIntl(<CodeForm onSubmit={onSubmit} />);
    await user.type(screen.getByRole('textbox', { name: 'DNI' }), '12345678Z');
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    const code = screen.getByRole('textbox', { name: 'Código' });
    await waitFor(() => expect(code).toHaveFocus());
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(code).toHaveAccessibleDescription(expect.stringMatching(/obligatorio|required/i));
    expect(onSubmit).not.toHaveBeenCalled();

    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    expect(onSubmit).toHaveBeenCalledWith({ userId: '12345678Z', code: '123456' }, expect.anything());
  });

  it("fall back to the specification's English text when the language's file lacks the message", async () => {
    const user = userEvent.setup();
    render(
      <IntlProvider locale="en" defaultLocale="en" messages={{}} onError={() => undefined}>
        <CodeForm onSubmit={jest.fn()} />
      </IntlProvider>,
    );
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'DNI' })).toHaveAccessibleDescription(expect.stringContaining('Value is required')));
  });
});
