import { screen } from '@testing-library/react';
import { useState } from 'react';
import { Modal } from '../../../src/components';
import { renderWithIntl, type TestLocale } from './renderWithIntl';

function Opener({ onClose = () => {}, container }: { onClose?: () => void; container?: Element | null }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Ver condiciones
      </button>
      <Modal
        open={open}
        title="Condiciones"
        container={container}
        onClose={() => {
          onClose();
          setOpen(false);
        }}
      >
        <p>Texto de las condiciones</p>
        <button type="button">Primero</button>
        <button type="button">Último</button>
      </Modal>
    </>
  );
}

async function openModal(locale: TestLocale = 'es', container?: Element | null) {
  const onClose = jest.fn();
  const rendered = renderWithIntl(<Opener onClose={onClose} container={container} />, { locale });
  await rendered.user.click(screen.getByRole('button', { name: 'Ver condiciones' }));
  return { ...rendered, onClose, dialog: screen.getByRole('dialog', { name: 'Condiciones' }) };
}

describe('Modal', () => {
  it('renders nothing while closed', () => {
    renderWithIntl(<Modal open={false} title="Condiciones" onClose={() => {}} />);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('is a modal dialog labelled by its title, rendered outside the component tree', async () => {
    const { dialog, container } = await openModal();
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(container).not.toContainElement(dialog);
  });

  it('renders into #app when the page has it', async () => {
    const app = document.createElement('div');
    app.id = 'app';
    document.body.append(app);
    try {
      const { dialog } = await openModal();
      expect(app).toContainElement(dialog);
    } finally {
      app.remove();
    }
  });

  it('renders into the container it is given', async () => {
    const target = document.createElement('div');
    document.body.append(target);
    try {
      const { dialog } = await openModal('es', target);
      expect(target).toContainElement(dialog);
    } finally {
      target.remove();
    }
  });

  it('closes on the close button, labelled Cerrar in Spanish', async () => {
    const { user, onClose } = await openModal('es');
    await user.click(screen.getByRole('button', { name: 'Cerrar' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('labels the close button Close in English', async () => {
    await openModal('en');
    expect(screen.getByRole('button', { name: 'Close' })).toBeInTheDocument();
  });

  it('closes on Escape', async () => {
    const { user, onClose } = await openModal();
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('closes on a backdrop click but not on a click inside the dialog', async () => {
    const { user, onClose, dialog } = await openModal();
    await user.click(screen.getByText('Texto de las condiciones'));
    await user.click(dialog);
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog')).toBeInTheDocument();

    await user.click(dialog.parentElement!);
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('moves focus into the dialog, keeps it there, and gives it back to the opener', async () => {
    const { user, dialog } = await openModal();
    expect(dialog).toHaveFocus();

    await user.tab();
    expect(screen.getByRole('button', { name: 'Cerrar' })).toHaveFocus();
    await user.tab();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Último' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Cerrar' })).toHaveFocus();
    await user.tab({ shift: true });
    expect(screen.getByRole('button', { name: 'Último' })).toHaveFocus();

    await user.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: 'Ver condiciones' })).toHaveFocus();
  });

  it('makes the page behind it inert while open', async () => {
    const { user, container } = await openModal();
    expect(container).toHaveAttribute('inert');
    await user.keyboard('{Escape}');
    expect(container).not.toHaveAttribute('inert');
  });
});
