import { screen, waitFor, within } from '@testing-library/react';
import { TemplatesView, type ReviewTemplateItem } from '../../../../src/features/backOffice/templates/TemplatesView';
import { renderWithIntl, type TestLocale } from '../../components/renderWithIntl';

const TEMPLATES: ReviewTemplateItem[] = [
  {
    id: 'missing-deeds',
    kind: 'more-info',
    title: { es: 'Faltan las escrituras', en: 'Deeds missing' },
    body: { es: 'Sube las escrituras de constitución.', en: 'Upload the deeds of incorporation.' },
    updatedAt: '2025-03-04T10:00:00.000Z',
    updatedBy: 'staff:ana@divilo.es',
    retired: false,
  },
  {
    id: 'not-served',
    kind: 'rejection',
    title: { es: 'No damos servicio', en: 'Not served' },
    body: { es: 'No podemos abrir esta cuenta.', en: 'We cannot open this account.' },
    updatedAt: '2025-03-01T10:00:00.000Z',
    updatedBy: 'staff:luis@divilo.es',
    retired: true,
  },
];

function renderTemplates(canEdit: boolean, onSave = jest.fn().mockResolvedValue(undefined), locale: TestLocale = 'en') {
  return { onSave, ...renderWithIntl(<TemplatesView templates={TEMPLATES} canEdit={canEdit} onSave={onSave} />, { locale }) };
}

const refusal = (code: string) => Object.assign(new Error(code), { code });

describe('TemplatesView', () => {
  it('lists the templates by kind, in both languages, with no editing for a reader', () => {
    renderTemplates(false);
    const rejections = screen.getByRole('region', { name: 'Rejections' });
    const moreInfo = screen.getByRole('region', { name: 'Requests for more information' });
    expect(within(rejections).getByRole('heading', { name: 'not-served' })).toBeInTheDocument();
    expect(within(rejections).getByText('Retired: no longer offered')).toBeInTheDocument();
    expect(within(moreInfo).getByText('Faltan las escrituras').closest('[lang]')).toHaveAttribute('lang', 'es');
    expect(within(moreInfo).getByText('Upload the deeds of incorporation.').closest('[lang]')).toHaveAttribute('lang', 'en');
    expect(within(moreInfo).getByText(/^Changed on .* by ana@divilo\.es$/)).toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('saves a new template, its words trimmed, and says so', async () => {
    const { user, onSave } = renderTemplates(true);
    await user.click(screen.getByRole('button', { name: 'New template' }));
    expect(screen.getByRole('heading', { name: 'New template' })).toHaveFocus();
    await user.type(screen.getByLabelText('Identifier'), 'unclear-activity');
    await user.selectOptions(screen.getByLabelText('Kind'), 'more-info');
    const spanish = screen.getByRole('group', { name: 'Spanish' });
    const english = screen.getByRole('group', { name: 'English' });
    await user.type(within(spanish).getByLabelText('Title'), '  Actividad poco clara ');
    await user.type(within(spanish).getByLabelText('Words for the applicant'), 'Cuéntanos más de tu actividad.');
    await user.type(within(english).getByLabelText('Title'), 'Unclear activity');
    await user.type(within(english).getByLabelText('Words for the applicant'), 'Tell us more about your activity.');
    expect(within(english).getByLabelText('Title')).toHaveAttribute('lang', 'en');
    await user.click(screen.getByRole('button', { name: 'Save template' }));
    expect(onSave).toHaveBeenCalledWith({
      id: 'unclear-activity',
      kind: 'more-info',
      title: { es: 'Actividad poco clara', en: 'Unclear activity' },
      body: { es: 'Cuéntanos más de tu actividad.', en: 'Tell us more about your activity.' },
      retired: false,
    });
    expect(await screen.findByRole('status')).toHaveTextContent('Template unclear-activity saved.');
    expect(screen.queryByRole('button', { name: 'Save template' })).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'New template' })).toHaveFocus());
  });

  it('checks a new template: its identifier, kind, both languages and their lengths', async () => {
    const { user, onSave } = renderTemplates(true);
    await user.click(screen.getByRole('button', { name: 'New template' }));
    await user.type(screen.getByLabelText('Identifier'), 'Bad id');
    const english = screen.getByRole('group', { name: 'English' });
    await user.click(within(english).getByLabelText('Title'));
    await user.paste('x'.repeat(121));
    await user.click(screen.getByRole('button', { name: 'Save template' }));
    const identifier = screen.getByLabelText('Identifier');
    await waitFor(() => expect(identifier).toHaveFocus());
    expect(identifier).toHaveAccessibleDescription(expect.stringContaining('Use only lower-case letters, digits and dashes, up to 64'));
    expect(screen.getByLabelText('Kind')).toHaveAccessibleDescription(expect.stringContaining('This field is required'));
    expect(within(screen.getByRole('group', { name: 'Spanish' })).getByLabelText('Title')).toHaveAccessibleDescription('This field is required');
    expect(within(english).getByLabelText('Title')).toHaveAccessibleDescription('The maximum length allowed is 120');
    expect(within(english).getByLabelText('Words for the applicant')).toHaveAccessibleDescription('0 of 2,000 characters This field is required');
    expect(onSave).not.toHaveBeenCalled();

    // An identifier already used would change that template: refused.
    await user.clear(identifier);
    await user.type(identifier, 'not-served');
    await user.click(screen.getByRole('button', { name: 'Save template' }));
    await waitFor(() => expect(identifier).toHaveAccessibleDescription(expect.stringContaining('There is a template with this identifier already')));
  });

  it('edits an existing template without its identifier or kind, keeping whether it is retired', async () => {
    const { user, onSave } = renderTemplates(true);
    await user.click(screen.getByRole('button', { name: 'Edit not-served' }));
    expect(screen.getByRole('heading', { name: 'Template not-served' })).toHaveFocus();
    expect(screen.queryByLabelText('Identifier')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Kind')).not.toBeInTheDocument();
    const spanish = screen.getByRole('group', { name: 'Spanish' });
    await user.clear(within(spanish).getByLabelText('Words for the applicant'));
    await user.type(within(spanish).getByLabelText('Words for the applicant'), 'Hoy no podemos abrir esta cuenta.');
    await user.click(screen.getByRole('button', { name: 'Save template' }));
    expect(onSave).toHaveBeenCalledWith({
      id: 'not-served',
      kind: 'rejection',
      title: TEMPLATES[1].title,
      body: { es: 'Hoy no podemos abrir esta cuenta.', en: 'We cannot open this account.' },
      retired: true,
    });
  });

  it('retires and restores a template with one button', async () => {
    const { user, onSave } = renderTemplates(true);
    await user.click(screen.getByRole('button', { name: 'Retire missing-deeds' }));
    const { id, kind, title, body } = TEMPLATES[0];
    expect(onSave).toHaveBeenLastCalledWith({ id, kind, title, body, retired: true });
    expect(await screen.findByText('Template missing-deeds retired: it is no longer offered.')).toHaveAttribute('role', 'status');
    await user.click(screen.getByRole('button', { name: 'Restore not-served' }));
    expect(onSave).toHaveBeenLastCalledWith(expect.objectContaining({ id: 'not-served', retired: false }));
    expect(await screen.findByText('Template not-served restored: it is offered again.')).toBeInTheDocument();
  });

  it('says why the bank refused, in words, and keeps the editor open', async () => {
    const onSave = jest.fn().mockRejectedValueOnce(refusal('TEMPLATE_KIND_DIFFERS')).mockRejectedValueOnce(refusal('ROLE_REQUIRED')).mockRejectedValueOnce(new Error('network'));
    const { user } = renderTemplates(true, onSave, 'es');
    await user.click(screen.getByRole('button', { name: 'Editar missing-deeds' }));
    await user.click(screen.getByRole('button', { name: 'Guardar plantilla' }));
    const alert = () => screen.getAllByRole('alert').map((node) => node.textContent).join('');
    await waitFor(() => expect(alert()).toBe('La plantilla missing-deeds existe con el otro tipo, que nunca cambia: dale a esta otro identificador.'));
    await user.click(screen.getByRole('button', { name: 'Guardar plantilla' }));
    await waitFor(() => expect(alert()).toBe('Solo los administradores pueden cambiar las plantillas.'));
    await user.click(screen.getByRole('button', { name: 'Guardar plantilla' }));
    await waitFor(() => expect(alert()).toBe('No hemos podido guardar la plantilla missing-deeds. Vuelve a intentarlo en un momento.'));
    expect(screen.getByRole('heading', { name: 'Plantilla missing-deeds' })).toBeInTheDocument();
  });

  it("reads the code of the app's failed calls too", async () => {
    const onSave = jest.fn().mockRejectedValue({ status: 403, errorCode: 'ROLE_REQUIRED' });
    const { user } = renderTemplates(true, onSave);
    await user.click(screen.getByRole('button', { name: 'Retire missing-deeds' }));
    await waitFor(() => expect(screen.getAllByRole('alert').map((node) => node.textContent).join('')).toBe('Only administrators can change templates.'));
  });
});
