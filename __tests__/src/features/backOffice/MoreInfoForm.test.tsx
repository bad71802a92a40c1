import { screen, waitFor, within } from '@testing-library/react';
import { MoreInfoForm } from '../../../../src/features/backOffice/review/MoreInfoForm';
import type { ReviewTemplateItem } from '../../../../src/features/backOffice/templates/TemplatesView';
import { renderWithIntl, type TestLocale } from '../../components/renderWithIntl';

const template = (id: string, title: string, body: { es: string; en: string }, changes: Partial<ReviewTemplateItem> = {}): ReviewTemplateItem => ({
  id,
  kind: 'more-info',
  title: { es: title, en: title },
  body,
  updatedAt: '2025-03-01T10:00:00.000Z',
  updatedBy: 'staff:ana@divilo.es',
  retired: false,
  ...changes,
});

const TEMPLATES = [
  template('missing-deeds', 'Deeds missing', { es: 'Sube las escrituras de constitución.', en: 'Upload the deeds of incorporation.' }),
  template('old-one', 'Old one', { es: 'Antiguo.', en: 'Old.' }, { retired: true }),
  template('not-served', 'Not served', { es: 'No.', en: 'No.' }, { kind: 'rejection' }),
];
const REOPENABLE = ['about-company', 'about-company-address', 'articles-of-association'];

function renderForm({ language = 'es', locale = 'en', onSubmit = jest.fn().mockResolvedValue(undefined) }: { language?: 'es' | 'en'; locale?: TestLocale; onSubmit?: jest.Mock } = {}) {
  const onCancel = jest.fn();
  return { onSubmit, onCancel, ...renderWithIntl(<MoreInfoForm reopenable={REOPENABLE} templates={TEMPLATES} language={language} onSubmit={onSubmit} onCancel={onCancel} />, { locale }) };
}

const refusal = (code: string) => Object.assign(new Error(code), { code });

describe('MoreInfoForm', () => {
  it("names the steps by their screens' titles and offers only the templates of its kind still offered", () => {
    renderForm();
    const steps = screen.getByRole('group', { name: 'Steps the applicant must answer again' });
    expect(within(steps).getAllByRole('checkbox').map((box) => box.closest('label')!.textContent)).toEqual(['Your company', 'Company address', 'Deeds and articles of association']);
    expect(within(screen.getByLabelText('Template')).getAllByRole('option').map((option) => option.textContent)).toEqual(['No template: only my message', 'Deeds missing']);
  });

  it("previews the words in the applicant's language, the template's then the message", async () => {
    const { user } = renderForm({ language: 'es' });
    const preview = screen.getByRole('region', { name: 'What the applicant will read, in Spanish' });
    expect(preview).toHaveTextContent('Choose a template or write a message to see it here.');
    await user.selectOptions(screen.getByLabelText('Template'), 'missing-deeds');
    await user.type(screen.getByLabelText(/^Your message/), 'Y la última escritura de poderes.');
    const words = within(preview).getAllByText(/\./);
    expect(words.map((node) => node.textContent)).toEqual(['Sube las escrituras de constitución.', 'Y la última escritura de poderes.']);
    expect(words[0].closest('[lang]')).toHaveAttribute('lang', 'es');
    expect(screen.getByLabelText(/^Your message/)).toHaveAttribute('lang', 'es');
  });

  it('previews in English for an applicant who reads English, whatever the reviewer reads', async () => {
    const { user } = renderForm({ language: 'en', locale: 'es' });
    await user.selectOptions(screen.getByLabelText('Plantilla'), 'missing-deeds');
    const preview = screen.getByRole('region', { name: 'Lo que leerá el solicitante, en inglés' });
    expect(within(preview).getByText('Upload the deeds of incorporation.')).toBeInTheDocument();
  });

  it('says the applicant will sign again, next to the button that sends', () => {
    renderForm();
    expect(screen.getByRole('button', { name: 'Send back to the applicant' })).toHaveAccessibleDescription(expect.stringContaining('will have to sign the contract again'));
  });

  it('sends the steps in the order of the wizard, the template and the message trimmed', async () => {
    const { user, onSubmit } = renderForm();
    await user.click(screen.getByRole('checkbox', { name: 'Deeds and articles of association' }));
    await user.click(screen.getByRole('checkbox', { name: 'Your company' }));
    await user.selectOptions(screen.getByLabelText('Template'), 'missing-deeds');
    await user.type(screen.getByLabelText(/^Your message/), '  Gracias.  ');
    await user.click(screen.getByRole('button', { name: 'Send back to the applicant' }));
    expect(onSubmit).toHaveBeenCalledWith({ steps: ['about-company', 'articles-of-association'], templateId: 'missing-deeds', message: 'Gracias.' });
  });

  it('sends a message alone, with no template', async () => {
    const { user, onSubmit } = renderForm();
    await user.click(screen.getByRole('checkbox', { name: 'Company address' }));
    await user.type(screen.getByLabelText(/^Your message/), 'Falta el piso.');
    await user.click(screen.getByRole('button', { name: 'Send back to the applicant' }));
    expect(onSubmit).toHaveBeenCalledWith({ steps: ['about-company-address'], message: 'Falta el piso.' });
  });

  it('asks for a step at least, and for a template or a message', async () => {
    const { user, onSubmit } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Send back to the applicant' }));
    const first = screen.getByRole('checkbox', { name: 'Your company' });
    await waitFor(() => expect(first).toHaveFocus());
    expect(screen.getByRole('group', { name: 'Steps the applicant must answer again' })).toHaveAccessibleDescription('Choose at least one step to reopen');
    expect(screen.getByLabelText(/^Your message/)).toHaveAccessibleDescription(expect.stringContaining('Choose a template or write a message: the applicant needs to know what to change'));
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('refuses a message longer than the bank takes', async () => {
    const { user, onSubmit } = renderForm({ locale: 'es' });
    await user.click(screen.getByRole('checkbox', { name: 'Tu empresa' }));
    await user.click(screen.getByLabelText(/^Tu mensaje/));
    await user.paste('a'.repeat(2001));
    await user.click(screen.getByRole('button', { name: 'Devolver al solicitante' }));
    await waitFor(() => expect(screen.getByLabelText(/^Tu mensaje/)).toHaveAccessibleDescription(expect.stringMatching(/^2001 de 2000 caracteres .*2000/)));
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it.each([
    ['STEP_NOT_REOPENABLE', 'One of the steps chosen cannot be reopened on this application. Reload it and choose again.'],
    ['NOT_DECIDABLE', 'The application is not signed and waiting for the bank, so it cannot be sent back.'],
    ['ALREADY_DECIDED', 'The application has been decided already.'],
    ['CONCURRENT_CHANGE', 'Someone else changed the application meanwhile. Reload it and try again.'],
    ['TEMPLATE_NOT_FOUND', 'That template is no longer offered. Choose another or write a message.'],
    ['SOMETHING_ELSE', 'The request could not be sent. Try again in a moment.'],
  ])('says in words why the bank refused: %s', async (code, text) => {
    const { user } = renderForm({ onSubmit: jest.fn().mockRejectedValue(refusal(code)) });
    await user.click(screen.getByRole('checkbox', { name: 'Your company' }));
    await user.selectOptions(screen.getByLabelText('Template'), 'missing-deeds');
    await user.click(screen.getByRole('button', { name: 'Send back to the applicant' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(text));
  });

  it('cancels', async () => {
    const { user, onCancel, onSubmit } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalled();
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
